/**
 * Attach storm: many clients join one session with history at once, each timing WebSocket open
 * to the join flush's Keyframe (what a dashboard full of viewers does after a deploy). Each VU
 * attaches about once every PACE_S seconds (default 1), so 200 VUs make ~200 attaches a second:
 * lift the server's connection rate limits for that (loadtest/README.md, k6 section).
 *   k6 run -e PTYWS_URL=http://127.0.0.1:8080 -e PTYWS_TOKEN=… loadtest/k6/attach-storm.ts
 */
import { sleep } from 'k6';
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
  sampled,
  verify,
  wsParams,
} from './lib.ts';

const attachToKeyframe = new Trend('ptyws_attach_keyframe_ms', true);
/** Seconds between one VU's attaches (an iteration sleeps what is left of it after its attach). */
const PACE_S = Number(__ENV['PACE_S'] ?? 1);

export const options: Options = {
  scenarios: {
    storm: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: '20s', target: 200 },
        { duration: '20s', target: 200 },
      ],
    },
  },
  thresholds: {
    ptyws_attach_keyframe_ms: ['p(95)<500', 'p(99)<1000'],
    // Calibrated: the Node driver's attach-storm (200 VUs paced as here, ~150 attaches/s) against
    // single-node `npm start`, driver and server on one 2-core machine under other load (load
    // average 12-15), measured p95 28, 49, 72, 160 and 188 ms in five 40 s runs; 300 leaves room
    // over the worst. Unpaced (each VU re-attaching at once, ~470/s) it measured 337 ms.
    ws_connecting: ['p(95)<300'],
    checks: ['rate>0.99'],
    'ptyws_samples{of:ptyws_attach_keyframe_ms}': ['count>0'],
    'ptyws_samples{of:ws_connecting}': ['count>0'],
    'ptyws_samples{of:checks}': ['count>0'],
  },
};

interface Data {
  sessionId: string;
}

/** One session whose program printed ~1000 lines: the history every attach sits on. */
export function setup(): Data {
  const sessionId = createSession(['/bin/sh', '-c', 'seq 1 1000; exec cat']);
  return { sessionId };
}

export function teardown(data: Data): void {
  cleanUp([data.sessionId]);
}

export default function (data: Data): void {
  const started = now();
  let openedAt = 0;
  let gotKeyframe = false;
  const res = ws.connect(attachUrl(data.sessionId), wsParams(ADMIN_TOKEN, BINARY), (socket) => {
    socket.on('open', () => {
      openedAt = now();
      // binding_hello comes first; the join is sent on it (see 'message').
    });
    socket.on('message', (msg) => {
      const f = parse(msg);
      if (f.op === 'binding_hello') socket.send(frame('pty.join_session', { role: 'observer' }, { first: true }));
      else if (isFlushKeyframe(f)) {
        gotKeyframe = true;
        attachToKeyframe.add(now() - openedAt);
        sampled('ptyws_attach_keyframe_ms');
        socket.close();
      }
    });
    socket.setTimeout(() => socket.close(), 10_000);
  });
  if (res.status === 101) sampled('ws_connecting');
  verify('upgrade 101', res.status === 101);
  verify('join flush ended with a Keyframe', gotKeyframe);
  // Paced: without it each VU re-attaches the moment it closed, and the storm measures how fast
  // one client machine can loop rather than a known attach rate.
  sleep(Math.max(0, PACE_S - (now() - started) / 1000));
}
