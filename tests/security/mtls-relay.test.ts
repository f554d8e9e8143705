/**
 * The mTLS front relays verified clients to the uWS app (issue 13: it mapped them by loopback
 * source address only, so a local process that bound a relay's 127.1.0.x address and connected
 * to the app's TCP port was taken as that certificate). Now the app listens on a unix socket in
 * a 0700 directory and each relay names itself in a PROXY v2 header: no TCP listener of the app is
 * left to reach, and a request without the header is never matched to a relay.
 */
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { SUBPROTOCOL_JSON } from '@pty-ws/protocol';
import { ClusterHandle, TestContext } from '@pty-ws/testkit';
import { TransportPolicy, type PeerDirectory } from '@pty-ws/edge/internal';
import { shell } from '../conformance/support';
import { makeCa, makeLeaf } from './certs';

jest.setTimeout(60_000);

/** TCP ports `pid` listens on (from /proc: its socket inodes in the LISTEN state). */
function listeningPorts(pid: number | 'self'): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = [];
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] === '0A' && inodes.has(f[9]!)) ports.push(parseInt(f[1]!.split(':')[1]!, 16));
    }
  }
  return [...new Set(ports)];
}

/** A plain ws:// attach from `localAddress` without any credential: the status it got. */
function plainAttach(port: number, path: string, localAddress: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, [SUBPROTOCOL_JSON], {
      localAddress,
      handshakeTimeout: 3000,
    });
    ws.on('open', () => {
      ws.terminate();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', () => resolve(0));
  });
}

describe('mTLS relay identities', () => {
  it('a request naming no relay in a PROXY header is refused, whatever its source address', () => {
    const peers = new Map([['127.1.0.1', { remoteAddress: '10.0.0.7', certificate: 'alice' }]]);
    const relay: PeerDirectory = { peerOf: (a) => peers.get(a) };
    const policy = new TransportPolicy(true, false, [], relay);
    expect(policy.admit('127.1.0.1', '').ok).toBe(false);
    expect(policy.admit('127.0.0.1', '', '', '', '127.1.0.2').ok).toBe(false);
    expect(policy.admit('', '', '', '', '127.1.0.1')).toEqual({
      ok: true,
      remoteAddress: '10.0.0.7',
      certificate: 'alice',
    });
  });

  describe('against a server', () => {
    let dir = '';
    let ctx: TestContext;
    let tls: { ca: Buffer; cert: Buffer; key: Buffer };
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'ptyws-relay-'));
      const ca = makeCa(dir, 'clients-ca');
      const serverCa = makeCa(dir, 'server-ca');
      const server = makeLeaf(dir, 'server', serverCa, '/CN=localhost', 'IP:127.0.0.1,DNS:localhost', false);
      const alice = makeLeaf(dir, 'alice', ca, '/CN=alice-bot', 'DNS:alice.example', true);
      tls = { ca: readFileSync(serverCa.cert), cert: readFileSync(alice.cert), key: readFileSync(alice.key) };
      ctx = await TestContext.start({
        tlsCert: server.cert,
        tlsKey: server.key,
        tlsCa: ca.cert,
        mtlsScopes: ['pty:observe', 'pty:control'],
      });
    });
    afterAll(async () => {
      await ctx?.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    it('while a relay is open, no port of the edge takes a plain attach from a relay address as the certificate', async () => {
      const created = await new Promise<string>((resolve, reject) => {
        // Create the session with the admin token over the mTLS port itself.
        const body = JSON.stringify(shell());
        const req = httpsRequest(
          `${ctx.server.httpUrl}/api/v1/sessions`,
          {
            method: 'POST',
            agent: false,
            ...tls,
            headers: { authorization: `Bearer ${ctx.server.adminToken}`, 'content-type': 'application/json' },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString('utf8')));
            res.on('end', () => resolve((JSON.parse(text) as { session_id: string }).session_id));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      // Hold a relay open (the certificate alone attaches: PTYWS_MTLS_SCOPES).
      const relay = new WebSocket(ctx.server.attachUrl(created), [SUBPROTOCOL_JSON], { ...tls });
      await new Promise<void>((resolve, reject) => {
        relay.once('message', () => resolve());
        relay.once('error', reject);
      });
      try {
        const pid = ctx.server.mode === 'cluster' ? (ctx.server.node as ClusterHandle).edges[0]!.child.pid! : 'self';
        const publicPort = Number(new URL(ctx.server.httpUrl).port);
        const path = new URL(ctx.server.attachUrl(created)).pathname;
        const ports = listeningPorts(pid).filter((p) => p !== publicPort);
        for (const port of ports) {
          for (const from of ['127.1.0.1', '127.1.0.2', '127.1.0.3'])
            expect(await plainAttach(port, path, from)).not.toBe(101);
        }
      } finally {
        relay.terminate();
      }
    });
  });
});
