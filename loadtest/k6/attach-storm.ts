/**
 * Attach storm: many clients join one session with history at once, each timing WebSocket open
 * to the join flush's Keyframe (what a dashboard full of viewers does after a deploy).
 *   k6 run -e PTYWS_URL=http://127.0.0.1:8080 -e PTYWS_TOKEN=… loadtest/k6/attach-storm.ts
 */
import { check } from 'k6';
import { Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import ws from 'k6/ws';
import { ADMIN_TOKEN, BINARY, attachUrl, createSession, frame, isFlushKeyframe, parse, wsParams } from './lib.ts';

const attachToKeyframe = new Trend('ptyws_attach_keyframe_ms', true);

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
    ws_connecting: ['p(95)<200'],
    checks: ['rate>0.99'],
  },
};

/** One session whose program printed ~1000 lines: the history every attach sits on. */
export function setup(): { sessionId: string } {
  const sessionId = createSession(['/bin/sh', '-c', 'seq 1 1000; exec cat']);
  return { sessionId };
}

export default function (data: { sessionId: string }): void {
  let openedAt = 0;
  let gotKeyframe = false;
  const res = ws.connect(attachUrl(data.sessionId), wsParams(ADMIN_TOKEN, BINARY), (socket) => {
    socket.on('open', () => {
      openedAt = Date.now();
      // binding_hello comes first; the join is sent on it (see 'message').
    });
    socket.on('message', (msg) => {
      const f = parse(msg);
      if (f.op === 'binding_hello') socket.send(frame('pty.join_session', { role: 'observer' }, { first: true }));
      else if (isFlushKeyframe(f)) {
        gotKeyframe = true;
        attachToKeyframe.add(Date.now() - openedAt);
        socket.close();
      }
    });
    socket.setTimeout(() => socket.close(), 10_000);
  });
  check(res, { 'upgrade 101': (r) => r.status === 101 });
  check(gotKeyframe, { 'join flush ended with a Keyframe': (v) => v });
}
