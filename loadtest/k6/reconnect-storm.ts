/**
 * Reconnect storm: clients watch a busy session, drop their connection, wait while the session
 * keeps printing, and come back with `replay_from` = the last sequence they saw. The first log
 * frame after the re-join must be that sequence + 1 (loadtest/src/load/replay-check.ts): no
 * REPLAY_OUT_OF_RANGE, nothing skipped, and a join that ignored `replay_from` fails too.
 */
import { sleep } from 'k6';
import { Rate, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import ws from 'k6/ws';
import { replayResumed } from '../src/load/replay-check.ts';
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
  printFor,
  pw1oSequence,
  sampled,
  verify,
  wsParams,
} from './lib.ts';

const replayOk = new Rate('ptyws_replay_ok');
const rejoin = new Trend('ptyws_rejoin_keyframe_ms', true);
/** Seconds between the drop and the re-join: the session prints ~20 frames a second meanwhile. */
const GAP_S = 1;
const RUN_S = 45;

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
    'ptyws_samples{of:ptyws_replay_ok}': ['count>0'],
    'ptyws_samples{of:ptyws_rejoin_keyframe_ms}': ['count>0'],
    'ptyws_samples{of:checks}': ['count>0'],
  },
};

interface Data {
  sessionId: string;
}

export function setup(): Data {
  // Prints for the run and a minute more (iterations started late still finish), then exits.
  return { sessionId: createSession(['/bin/sh', '-c', printFor('date', 0.05, RUN_S + 60)]) };
}

export function teardown(data: Data): void {
  cleanUp([data.sessionId]);
}

interface Watched {
  /** Highest sequence received (JSON frames and PW1O). */
  last: number;
  /** Every received frame's sequence, in order. */
  sequences: number[];
  keyframe: boolean;
  outOfRange: boolean;
}

/**
 * Joins (with `replay_from` when given) and watches until the join's Keyframe and then `frames`
 * live PW1O frames arrived, or 10 s passed. Closing only after the Keyframe: a replay comes
 * before it, so an earlier close would cut the replay short.
 */
function watch(sessionId: string, frames: number, replayFrom?: number): Watched {
  const w: Watched = { last: -1, sequences: [], keyframe: false, outOfRange: false };
  let live = 0;
  let openedAt = 0;
  const seen = (seq: number): void => {
    w.sequences.push(seq);
    w.last = Math.max(w.last, seq);
  };
  ws.connect(attachUrl(sessionId), wsParams(ADMIN_TOKEN, BINARY), (socket) => {
    socket.on('open', () => (openedAt = now()));
    socket.on('message', (msg) => {
      const f = parse(msg);
      if (typeof f.sequence === 'number') seen(f.sequence);
      if (f.op === 'binding_hello') {
        const extra = replayFrom === undefined ? { first: true } : { first: true, replay_from: replayFrom };
        socket.send(frame('pty.join_session', { role: 'observer' }, extra));
      } else if (f.payload?.code === 'REPLAY_OUT_OF_RANGE') w.outOfRange = true;
      else if (isFlushKeyframe(f) && !w.keyframe) {
        w.keyframe = true;
        if (replayFrom !== undefined) {
          rejoin.add(now() - openedAt);
          sampled('ptyws_rejoin_keyframe_ms');
        }
      }
    });
    socket.on('binaryMessage', (data) => {
      const seq = pw1oSequence(data);
      if (seq < 0) return;
      seen(seq);
      // k6/ws cannot drop TCP without a close handshake; for the server a close is a detach all the same.
      if (w.keyframe && ++live >= frames) socket.close();
    });
    socket.setTimeout(() => socket.close(), 10_000);
  });
  return w;
}

export default function (data: Data): void {
  const first = watch(data.sessionId, 20);
  if (!verify('saw output before the drop', first.keyframe && first.last > 0)) return;
  sleep(GAP_S);
  const second = watch(data.sessionId, 5, first.last);
  // One sample per re-join, whatever went wrong (out of range, skipped frames, no Keyframe).
  replayOk.add(
    replayResumed({
      lastSeen: first.last,
      sequences: second.sequences,
      outOfRange: second.outOfRange,
      keyframe: second.keyframe,
    }),
  );
  sampled('ptyws_replay_ok');
}
