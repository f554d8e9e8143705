/** Self-test of the raw test client against a tiny scripted ws server (no pty-ws server needed). */
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { encodeOutputFrame, serverFrame } from '@pty-ws/protocol';
import { TestClient, gaps, is, sequenceViolations, tryUpgrade } from '@pty-ws/testkit';

describe('testkit TestClient', () => {
  let wss: WebSocketServer;
  let url = '';
  const onConn: Array<(ws: WebSocket) => void> = [];

  beforeAll(async () => {
    wss = new WebSocketServer({
      port: 0,
      host: '127.0.0.1',
      handleProtocols: (protocols) => (protocols.has('pty-ws.v1') ? 'pty-ws.v1' : false),
      verifyClient: (info, cb) => (info.req.headers.authorization === 'Bearer ok' ? cb(true) : cb(false, 401)),
    });
    wss.on('connection', (ws) => onConn.shift()?.(ws));
    await new Promise((r) => wss.once('listening', r));
    url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/x`;
  });
  afterAll(async () => {
    for (const c of wss.clients) c.terminate();
    await new Promise((r) => wss.close(r));
  });

  it('buffers JSON and PW1O frames, finds frames by predicate and collects output', async () => {
    onConn.push((ws) => {
      ws.send(JSON.stringify(serverFrame('binding_hello', {}, 0)));
      ws.send(
        JSON.stringify(
          serverFrame(
            'pty.session_frame',
            { kind: 'Output', stream: 'stdout', data: Buffer.from('hel').toString('base64') },
            1,
          ),
        ),
      );
      ws.send(encodeOutputFrame(2, 'stdout', Buffer.from('lo\r\n')));
      ws.on('message', (d) => {
        const f = JSON.parse(String(d)) as { id: string; op: string };
        ws.send(JSON.stringify(serverFrame('pong', {}, 2, { id: f.id })));
      });
    });
    const c = await TestClient.connect(url, { token: 'ok' });
    expect(c.protocol).toBe('pty-ws.v1');
    await c.hello();
    expect(await c.collectOutput(/hello/)).toBe('hello\r\n');
    const pong = await c.request('ping', { client_ts: 'now' });
    expect(pong.op).toBe('pong');
    expect(sequenceViolations(c.frames)).toEqual([]);
    expect(gaps([1, 2, 4])).toEqual(['2 → 4']);
    await expect(c.nextFrame(is.op('never'), 100)).rejects.toThrow(/no matching frame/);
    c.terminate();
  });

  it('reports upgrade failures with their HTTP status', async () => {
    expect((await tryUpgrade(url, { token: 'bad' })).status).toBe(401);
    const ok = await tryUpgrade(url, { token: 'ok', protocols: ['x', 'pty-ws.v1'] });
    expect(ok).toMatchObject({ status: 101, protocolHeader: 'pty-ws.v1' });
  });

  it('flags a reply whose sequence is not the last log sequence', () => {
    const frames = [
      { type: 'json' as const, frame: serverFrame('binding_hello', {}, 0), raw: '', at: 0 },
      {
        type: 'json' as const,
        frame: serverFrame('pty.session_frame', { kind: 'Resize', cols: 80, rows: 24 }, 3),
        raw: '',
        at: 0,
      },
      { type: 'json' as const, frame: serverFrame('pong', {}, 2), raw: '', at: 0 },
    ];
    expect(sequenceViolations(frames)).toHaveLength(1);
  });
});
