/**
 * Observer fan-out: one session prints continuously; many observers count PW1O bytes and
 * PTY_OUTPUT_LAGGED notices (a skipped-forward slow consumer).
 */
import { Counter } from 'k6/metrics';
import type { Options } from 'k6/options';
import ws from 'k6/ws';
import {
  ADMIN_TOKEN,
  BINARY,
  attachUrl,
  cleanUp,
  createSession,
  frame,
  parse,
  printFor,
  pw1oSequence,
  sampled,
  verify,
  wsParams,
} from './lib.ts';

const bytes = new Counter('ptyws_fanout_bytes');
const lagged = new Counter('ptyws_lagged');
const RUN_S = 60;

export const options: Options = {
  scenarios: { fanout: { executor: 'constant-vus', vus: Number(__ENV['VUS'] ?? 100), duration: `${RUN_S}s` } },
  thresholds: {
    // Per observer ~40 KB/s of output: 100 observers should see about 4 MB/s in total.
    ptyws_fanout_bytes: ['rate>2000000', 'count>0'],
    ptyws_lagged: ['count<1'],
    checks: ['rate>0.99'],
    // No lag counted means something only when observers watched: one sample per watch with output.
    'ptyws_samples{of:ptyws_lagged}': ['count>0'],
    'ptyws_samples{of:checks}': ['count>0'],
  },
};

interface Data {
  sessionId: string;
}

export function setup(): Data {
  // Raise PTYWS_MAX_OBSERVERS above the VU count (default 32) on the server under test.
  // Prints for the run and 30 s more (the last watches finish), then exits.
  return {
    sessionId: createSession(['/bin/sh', '-c', printFor('head -c 3000 /dev/urandom | base64', 0.1, RUN_S + 30)]),
  };
}

export function teardown(data: Data): void {
  cleanUp([data.sessionId]);
}

export default function (data: Data): void {
  let got = 0;
  const res = ws.connect(attachUrl(data.sessionId), wsParams(ADMIN_TOKEN, BINARY), (socket) => {
    socket.on('message', (msg) => {
      const f = parse(msg);
      if (f.op === 'binding_hello') socket.send(frame('pty.join_session', { role: 'observer' }, { first: true }));
      if (f.payload?.code === 'PTY_OUTPUT_LAGGED') lagged.add(1);
    });
    socket.on('binaryMessage', (data) => {
      if (pw1oSequence(data) < 0) return;
      bytes.add(data.byteLength - 13);
      got += data.byteLength - 13;
    });
    socket.setTimeout(() => socket.close(), 30_000);
  });
  verify('upgrade 101', res.status === 101);
  if (verify('received output', got > 0)) sampled('ptyws_lagged');
}
