/**
 * Typing latency: every VU owns an echo session (`stty raw -echo; exec cat`) and types one
 * character at a time over the binary subprotocol, timing PW1I → the PW1O that contains it. A
 * key not echoed within KEY_TIMEOUT_MS is a failed check, and typing goes on with the next one.
 */
import exec from 'k6/execution';
import { Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import ws from 'k6/ws';
import {
  ADMIN_TOKEN,
  BINARY,
  attachUrl,
  cleanUp,
  createSession,
  frame,
  isFlushKeyframe,
  now,
  parse,
  pw1i,
  pw1oText,
  sampled,
  verify,
  wsParams,
} from './lib.ts';

const VUS = Number(__ENV['VUS'] ?? 50);
const echo = new Trend('ptyws_echo_ms', true);
/** A keystroke's echo later than this counts as lost (the p99 threshold is 150 ms). */
const KEY_TIMEOUT_MS = 2000;

export const options: Options = {
  scenarios: { typing: { executor: 'constant-vus', vus: VUS, duration: '60s' } },
  thresholds: {
    ptyws_echo_ms: ['p(50)<20', 'p(99)<150'],
    checks: ['rate>0.99'],
    'ptyws_samples{of:ptyws_echo_ms}': ['count>0'],
    'ptyws_samples{of:checks}': ['count>0'],
  },
};

interface Data {
  sessions: string[];
}

export function setup(): Data {
  const sessions: string[] = [];
  for (let i = 0; i < VUS; i++) sessions.push(createSession(['/bin/sh', '-c', 'stty raw -echo; exec cat']));
  return { sessions };
}

export function teardown(data: Data): void {
  cleanUp(data.sessions);
}

const KEYS = 'abcdefghijklmnopqrstuvwxyz';

export default function (data: Data): void {
  const sessionId = data.sessions[(exec.vu.idInTest - 1) % data.sessions.length] as string;
  let joined = false;
  const res = ws.connect(attachUrl(sessionId), wsParams(ADMIN_TOKEN, BINARY), (socket) => {
    let pending = '';
    let sentAt = 0;
    let n = 0;
    const typeNext = (): void => {
      const key = n;
      pending = KEYS[n++ % KEYS.length] as string;
      sentAt = now();
      socket.sendBinary(pw1i(pending));
      // k6/ws timers cannot be cancelled: the timeout checks whether this key is still pending.
      socket.setTimeout(() => {
        if (!pending || n !== key + 1) return;
        pending = '';
        verify(`echo within ${KEY_TIMEOUT_MS} ms`, false);
        typeNext();
      }, KEY_TIMEOUT_MS);
    };
    socket.on('message', (msg) => {
      const f = parse(msg);
      if (f.op === 'binding_hello') socket.send(frame('pty.join_session', { role: 'controller' }, { first: true }));
      else if (isFlushKeyframe(f)) {
        joined = true;
        typeNext();
      }
    });
    socket.on('binaryMessage', (data) => {
      if (!pending || !pw1oText(data).includes(pending)) return;
      echo.add(now() - sentAt);
      sampled('ptyws_echo_ms');
      verify(`echo within ${KEY_TIMEOUT_MS} ms`, true);
      pending = '';
      // ~10 keystrokes a second: a fast typist, not a flood.
      socket.setTimeout(typeNext, 100);
    });
    socket.setTimeout(() => socket.close(), 20_000);
  });
  verify('upgrade 101', res.status === 101);
  verify('joined', joined);
}
