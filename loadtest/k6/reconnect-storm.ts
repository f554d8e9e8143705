/**
 * Reconnect storm: clients watch a busy session, drop their connection, and come back with
 * `replay_from` = the last sequence they saw. The replay must resume exactly after it (no
 * REPLAY_OUT_OF_RANGE, first replayed frame = last + 1).
 */
import { check } from 'k6';
import { Rate, Trend } from 'k6/metrics';
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
  pw1oSequence,
  wsParams,
} from './lib.ts';

const replayOk = new Rate('ptyws_replay_ok');
const rejoin = new Trend('ptyws_rejoin_keyframe_ms', true);

export const options: Options = {
  scenarios: {
    reconnect: {
      executor: 'ramping-vus',
      stages: [
        { duration: '15s', target: 100 },
        { duration: '30s', target: 100 },
      ],
    },
  },
  thresholds: {
    ptyws_replay_ok: ['rate>0.99'],
    ptyws_rejoin_keyframe_ms: ['p(95)<500'],
    checks: ['rate>0.99'],
  },
};

export function setup(): { sessionId: string } {
  return { sessionId: createSession(['/bin/sh', '-c', 'while :; do date; sleep 0.05; done']) };
}

/** Watches until `frames` PW1O frames arrived; returns the last sequence seen. */
function watch(sessionId: string, frames: number, replayFrom?: number): { last: number; firstReplayed: number } {
  let last = -1;
  let firstReplayed = -1;
  let count = 0;
  let openedAt = 0;
  let joined = false;
  ws.connect(attachUrl(sessionId), wsParams(ADMIN_TOKEN, BINARY), (socket) => {
    socket.on('open', () => (openedAt = Date.now()));
    socket.on('message', (msg) => {
      const f = parse(msg);
      if (f.op === 'binding_hello') {
        const extra = replayFrom === undefined ? { first: true } : { first: true, replay_from: replayFrom };
        socket.send(frame('pty.join_session', { role: 'observer' }, extra));
      } else if (f.payload?.code === 'REPLAY_OUT_OF_RANGE') replayOk.add(false);
      else if (isFlushKeyframe(f) && !joined) {
        joined = true;
        if (replayFrom !== undefined) rejoin.add(Date.now() - openedAt);
      }
    });
    socket.on('binaryMessage', (data) => {
      const seq = pw1oSequence(data);
      if (seq < 0) return;
      if (firstReplayed < 0) firstReplayed = seq;
      last = seq;
      // k6/ws cannot drop TCP without a close handshake; for the server a close is a detach all the same.
      if (++count >= frames) socket.close();
    });
    socket.setTimeout(() => socket.close(), 10_000);
  });
  return { last, firstReplayed };
}

export default function (data: { sessionId: string }): void {
  const first = watch(data.sessionId, 20);
  check(first.last, { 'saw output before the drop': (v) => v > 0 });
  if (first.last < 0) return;
  const second = watch(data.sessionId, 5, first.last);
  // Log frames other than Output (membership, keyframes) may sit between: the next PW1O is > last.
  replayOk.add(second.firstReplayed > first.last);
}
