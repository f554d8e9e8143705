/**
 * Typing latency: every VU owns an echo session (`stty raw -echo; exec cat`) and types one
 * character at a time over the binary subprotocol, timing PW1I → the PW1O that contains it.
 */
import { check } from 'k6';
import exec from 'k6/execution';
import { Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import ws from 'k6/ws';
import {
  ADMIN_TOKEN,
  BINARY,
  attachUrl,
  createSession,
  frame,
  isFlushKeyframe,
  parse,
  pw1i,
  pw1oText,
  wsParams,
} from './lib.ts';

const VUS = Number(__ENV['VUS'] ?? 50);
const echo = new Trend('ptyws_echo_ms', true);

export const options: Options = {
  scenarios: { typing: { executor: 'constant-vus', vus: VUS, duration: '60s' } },
  thresholds: {
    ptyws_echo_ms: ['p(50)<20', 'p(99)<150'],
    checks: ['rate>0.99'],
  },
};

export function setup(): { sessions: string[] } {
  const sessions: string[] = [];
  for (let i = 0; i < VUS; i++) sessions.push(createSession(['/bin/sh', '-c', 'stty raw -echo; exec cat']));
  return { sessions };
}

const KEYS = 'abcdefghijklmnopqrstuvwxyz';

export default function (data: { sessions: string[] }): void {
  const sessionId = data.sessions[(exec.vu.idInTest - 1) % data.sessions.length] as string;
  let joined = false;
  const res = ws.connect(attachUrl(sessionId), wsParams(ADMIN_TOKEN, BINARY), (socket) => {
    let pending = '';
    let sentAt = 0;
    let n = 0;
    const typeNext = (): void => {
      pending = KEYS[n++ % KEYS.length] as string;
      sentAt = Date.now();
      socket.sendBinary(pw1i(pending));
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
      echo.add(Date.now() - sentAt);
      pending = '';
      // ~10 keystrokes a second: a fast typist, not a flood.
      socket.setTimeout(typeNext, 100);
    });
    socket.setTimeout(() => socket.close(), 20_000);
  });
  check(res, { 'upgrade 101': (r) => r.status === 101 });
  check(joined, { joined: (v) => v });
}
