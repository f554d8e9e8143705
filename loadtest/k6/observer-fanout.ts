/**
 * Observer fan-out: one session prints continuously; many observers count PW1O bytes and
 * PTY_OUTPUT_LAGGED notices (a skipped-forward slow consumer).
 */
import { check } from 'k6';
import { Counter } from 'k6/metrics';
import type { Options } from 'k6/options';
import ws from 'k6/ws';
import { ADMIN_TOKEN, BINARY, attachUrl, createSession, frame, parse, pw1oSequence, wsParams } from './lib.ts';

const bytes = new Counter('ptyws_fanout_bytes');
const lagged = new Counter('ptyws_lagged');

export const options: Options = {
  scenarios: { fanout: { executor: 'constant-vus', vus: Number(__ENV['VUS'] ?? 100), duration: '60s' } },
  thresholds: {
    // Per observer ~40 KB/s of output: 100 observers should see about 4 MB/s in total.
    ptyws_fanout_bytes: ['rate>2000000'],
    ptyws_lagged: ['count<1'],
    checks: ['rate>0.99'],
  },
};

export function setup(): { sessionId: string } {
  // Raise PTYWS_MAX_OBSERVERS above the VU count (default 32) on the server under test.
  const loop = 'while :; do head -c 3000 /dev/urandom | base64; sleep 0.1; done';
  return { sessionId: createSession(['/bin/sh', '-c', loop]) };
}

export default function (data: { sessionId: string }): void {
  const res = ws.connect(attachUrl(data.sessionId), wsParams(ADMIN_TOKEN, BINARY), (socket) => {
    socket.on('message', (msg) => {
      const f = parse(msg);
      if (f.op === 'binding_hello') socket.send(frame('pty.join_session', { role: 'observer' }, { first: true }));
      if (f.payload?.code === 'PTY_OUTPUT_LAGGED') lagged.add(1);
    });
    socket.on('binaryMessage', (data) => {
      if (pw1oSequence(data) >= 0) bytes.add(data.byteLength - 13);
    });
    socket.setTimeout(() => socket.close(), 30_000);
  });
  check(res, { 'upgrade 101': (r) => r.status === 101 });
}
