/**
 * Pre-auth memory (issue 13): 300 unauthenticated, half-sent POSTs used to make the edge buffer
 * their bodies (up to 1 MiB each for A2A) before looking at the credentials — RSS 77 → 359 MB,
 * not returned. Now credentials are checked from the headers first (a refused request is answered
 * and its connection closed before its body is read), bodies wait paused until then, and the bytes
 * all request bodies may buffer together are capped. The server runs as its own process (npm
 * start) and its resident set must stay within RSS_BOUND_MB of its baseline.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { startStandaloneProcess, type StandaloneProcess } from '@pty-ws/testkit';

jest.setTimeout(120_000);

const RSS_BOUND_MB = 100;
const CONNECTIONS = 300;
const SENT_BYTES = 900 * 1024;

function rssMb(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
}

let server: StandaloneProcess;
beforeAll(async () => {
  server = await startStandaloneProcess({ PTYWS_AUDIT_LOG: 'off', PTYWS_LOG_LEVEL: 'warn' });
});
afterAll(() => server?.kill());

/** Sends the headers and SENT_BYTES of a 1 MiB body, then nothing more; resolves once written. */
function halfSentPost(path: string, authorization: string): Promise<Socket> {
  const { hostname, port } = new URL(server.httpUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
          `${authorization}Content-Length: ${1024 * 1024}\r\n\r\n`,
      );
      socket.write(Buffer.alloc(SENT_BYTES, 0x20), () => resolve(socket));
    });
    socket.on('error', () => undefined); // the server may close it: that is the point
    socket.once('error', reject);
  });
}

it(`${CONNECTIONS} half-sent unauthenticated POSTs do not grow the edge by more than ${RSS_BOUND_MB} MB`, async () => {
  const pid = server.child.pid!;
  const baseline = rssMb(pid);
  const paths = [
    `/agents/${server.instanceId}/a2a/jsonrpc`,
    `/agents/${server.instanceId}/a2a/v1/message:send`,
    '/api/v1/sessions',
  ];
  const sockets: Socket[] = [];
  let peak = baseline;
  for (let i = 0; i < CONNECTIONS; i++) {
    const auth = i % 2 === 0 ? '' : 'Authorization: Bearer ptyws_not-a-real-token\r\n';
    sockets.push(await halfSentPost(paths[i % paths.length]!, auth));
    peak = Math.max(peak, rssMb(pid));
  }
  // Give the edge every chance to read what was sent: it answers the health probe only after
  // having processed the readable sockets before it.
  for (let round = 0; round < 20; round++) {
    const res = await fetch(`${server.httpUrl}/healthz`, { headers: { Connection: 'close' } });
    await res.text();
    peak = Math.max(peak, rssMb(pid));
  }
  for (const s of sockets) s.destroy();
  expect(peak - baseline).toBeLessThan(RSS_BOUND_MB);
  // And the server still answers.
  expect((await fetch(`${server.httpUrl}/healthz`)).status).toBe(200);
});

it('PTYWS_MAX_HTTP_REQUESTS caps requests received but not answered: the next one gets 503 at once', async () => {
  const capped = await startStandaloneProcess({
    PTYWS_AUDIT_LOG: 'off',
    PTYWS_LOG_LEVEL: 'warn',
    PTYWS_MAX_HTTP_REQUESTS: '5',
  });
  const { hostname, port } = new URL(capped.httpUrl);
  const held: Socket[] = [];
  try {
    // Authenticated bodies that never finish: each holds a request slot.
    for (let i = 0; i < 5; i++) {
      held.push(
        await new Promise<Socket>((resolve) => {
          const s = connect(Number(port), hostname, () =>
            s.write(
              `POST /api/v1/tokens HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
                `Authorization: Bearer ${capped.token}\r\nContent-Length: 100\r\n\r\n{`,
              () => resolve(s),
            ),
          );
          s.on('error', () => undefined);
        }),
      );
    }
    let status = 0;
    // The slots are taken once the edge has read those requests; until then /healthz may pass.
    for (let i = 0; i < 50 && status !== 503; i++) {
      const res = await fetch(`${capped.httpUrl}/healthz`, { headers: { Connection: 'close' } });
      await res.text();
      status = res.status;
    }
    expect(status).toBe(503);
    for (const s of held) s.destroy();
    // Slots come back when the clients go away.
    let after = 0;
    for (let i = 0; i < 50 && after !== 200; i++) {
      const res = await fetch(`${capped.httpUrl}/healthz`, { headers: { Connection: 'close' } });
      await res.text();
      after = res.status;
    }
    expect(after).toBe(200);
  } finally {
    for (const s of held) s.destroy();
    capped.kill();
  }
});
