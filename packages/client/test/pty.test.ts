import { decodeBase64, encodeBase64, serverFrame, SNAPSHOT_FORMAT } from '@pty-ws/protocol';
import { INPUT_CHUNK_BYTES, PtyClient, type OutputEvent } from '../src';
import { ManualClock } from '@pty-ws/testkit';
import { stateReached } from './clock-helpers';
import { FakeServer } from './fake-server';
import { clientFor, record, text } from './helpers';

describe('PTY verbs', () => {
  let server: FakeServer;
  let client: PtyClient;
  afterEach(async () => {
    client.close();
    await server.stop();
    expect(server.violations).toEqual([]);
  });

  async function joined(options: Parameters<typeof clientFor>[1] = {}): Promise<void> {
    client = clientFor(server, options);
    await client.connect();
    await client.join({ cols: 100, rows: 30, label: 'tester' });
  }

  describe('json mode', () => {
    beforeEach(async () => {
      server = await FakeServer.start();
    });

    it('join resolves with RoleAssigned after the flush Keyframe, in flush order', async () => {
      client = clientFor(server, { clientLabel: 'ops-console' });
      await client.connect();
      const events = record(client, ['role', 'membership', 'keyframe']);
      expect(client.input('x')).toBe(false); // not joined yet: dropped, not queued
      const role = await client.join({ cols: 100, rows: 30 });
      expect(events).toEqual(['role', 'membership', 'keyframe']);
      expect(role).toMatchObject({ role: 'controller', downgraded: false });
      expect(client.isJoined).toBe(true);
      expect(client.role).toBe('controller');
      expect(client.clientId).toBe(role.clientId);
      expect(client.size).toEqual({ cols: 100, rows: 30 });
      expect(client.membership?.controllers).toEqual([{ client_id: role.clientId, label: 'ops-console' }]);
      const join = (await server.connection(0)).received.find((f) => f.op === 'pty.join_session');
      expect(join?.payload).toEqual({ cols: 100, rows: 30, client_label: 'ops-console' });
      await expect(client.join()).rejects.toMatchObject({ code: 'INVALID_STATE' });
    });

    it('sends input as base64 pty.session_input and emits the echoed Output with its sequence', async () => {
      await joined();
      const out = client.next('output');
      expect(client.input('ls -la\r')).toBe(true);
      const ev = await out;
      expect(text(ev.data)).toBe('ls -la\r');
      expect(ev).toMatchObject({ stream: 'stdout', replayed: false, sequence: server.seq });
      expect(client.lastSequence).toBe(server.seq);
      const conn = await server.connection(0);
      const input = conn.received.find((f) => f.op === 'pty.session_input');
      expect(text(decodeBase64(String(input?.payload['data'])))).toBe('ls -la\r');
      expect(conn.binaryReceived).toHaveLength(0);
    });

    it('sends a paste larger than a frame as several input frames, in order', async () => {
      await joined();
      const paste = new Uint8Array(INPUT_CHUNK_BYTES * 2 + 5).map((_, i) => 0x41 + (i % 26));
      // The fake server echoes each input frame as one Output: three echoes mean three frames arrived.
      const echoed = new Promise<void>((resolve) => {
        let n = 0;
        client.on('output', () => {
          if (++n === 3) resolve();
        });
      });
      expect(client.input(paste)).toBe(true);
      await echoed;
      const conn = await server.connection(0);
      const parts = conn.received
        .filter((f) => f.op === 'pty.session_input')
        .map((f) => decodeBase64(String(f.payload['data'])));
      expect(parts.map((p) => p.length)).toEqual([INPUT_CHUNK_BYTES, INPUT_CHUNK_BYTES, 5]);
      expect(Buffer.concat(parts).equals(Buffer.from(paste))).toBe(true);
    });

    it('enforces the 20x5 floor client-side and emits server Resize frames', async () => {
      await joined();
      expect(client.resize(19, 30)).toBe(false);
      expect(client.resize(80, 4)).toBe(false);
      expect(client.resize(Number.NaN, 30)).toBe(false);
      expect(client.resize(80.5, 30)).toBe(false);
      expect(client.resize(1025, 30)).toBe(false);
      const resized = client.next('resize');
      expect(client.resize(20, 5)).toBe(true);
      await expect(resized).resolves.toMatchObject({ cols: 20, rows: 5 });
      expect(client.size).toEqual({ cols: 20, rows: 5 });
      const conn = await server.connection(0);
      expect(conn.received.filter((f) => f.op === 'pty.session_resize').map((f) => f.payload)).toEqual([
        { cols: 20, rows: 5 },
      ]);
    });

    it('requests and releases roles, and asks for keyframes', async () => {
      await joined({ role: 'observer' });
      expect(client.role).toBe('observer');
      await expect(client.requestRole('controller')).resolves.toMatchObject({ role: 'controller' });
      expect(client.role).toBe('controller');
      await expect(client.releaseRole()).resolves.toMatchObject({ role: 'observer' });
      server.output('hello');
      const kf = await client.requestKeyframe();
      expect(kf).toMatchObject({ snapshot: 'hello', format: SNAPSHOT_FORMAT, anchorSequence: server.seq });
    });

    it('reports a rejected observer write as an error event (server is authoritative)', async () => {
      await joined({ role: 'observer' });
      const err = client.next('error');
      expect(client.input('rm -rf /')).toBe(true);
      const input = await (await server.connection(0)).waitFor('pty.session_input');
      await expect(err).resolves.toMatchObject({ code: 'PERMISSION_DENIED', requestId: input.id, retryable: false });
    });

    it('discards Output at or below the Keyframe anchor', async () => {
      server.override('pty.join_session', (conn, f) => {
        conn.sessionFrame({ kind: 'RoleAssigned', role: 'controller', client_id: 'c1' });
        const out = (seq: number, s: string): void =>
          conn.send(
            serverFrame(
              'pty.session_frame',
              { kind: 'Output', stream: 'stdout', data: encodeBase64(Buffer.from(s)) },
              seq,
            ),
          );
        out(9, 'nine'); // replayed, before the keyframe: delivered
        conn.send(
          serverFrame(
            'pty.session_frame',
            {
              kind: 'Keyframe',
              snapshot: encodeBase64(Buffer.from('screen')),
              snapshot_format: SNAPSHOT_FORMAT,
              snapshot_cols: 80,
              snapshot_rows: 24,
              anchor_sequence: 10,
            },
            10,
            { id: f.id },
          ),
        );
        out(9, 'stale-9');
        out(10, 'stale-10');
        out(11, 'eleven');
      });
      client = clientFor(server);
      await client.connect();
      const outputs: OutputEvent[] = [];
      client.on('output', (o) => outputs.push(o));
      await client.join();
      await client.ping(); // its answer comes after every frame the server sent before it
      expect(outputs.map((o) => [text(o.data), o.sequence, o.replayed])).toEqual([
        ['nine', 9, true],
        ['eleven', 11, false],
      ]);
      expect(client.lastSequence).toBe(11);
    });

    it('emits closed and goodbye when the process exits, then stays closed', async () => {
      const clock = new ManualClock();
      await joined({ clock });
      const events = record(client, ['closed', 'goodbye', 'state'], (t, ev) =>
        t === 'state' ? (ev as { state: string }).state : undefined,
      );
      const closed = client.next('closed');
      server.endSession(3);
      await expect(closed).resolves.toMatchObject({ exitCode: 3, reason: 'normal' });
      await stateReached(client, 'closed');
      expect(clock.pendingCount).toBe(0); // no reconnect pause
      clock.advance(60_000);
      expect(events).toEqual(['closed', 'goodbye', 'state:closed']);
      expect(server.conns).toHaveLength(1);
    });
  });

  describe('binary mode', () => {
    beforeEach(async () => {
      server = await FakeServer.start();
    });

    it('sends PW1I input frames and decodes PW1O output frames', async () => {
      await joined({ mode: 'binary' });
      const out = client.next('output');
      const bytes = new Uint8Array([0x1b, 0x5b, 0x41, 0xff, 0x00]);
      expect(client.input(bytes)).toBe(true);
      const ev = await out;
      expect(Array.from(ev.data)).toEqual(Array.from(bytes));
      expect(ev.sequence).toBe(server.seq);
      const conn = await server.connection(0);
      expect(conn.binaryReceived).toHaveLength(1);
      expect(Array.from(conn.binaryReceived[0]!.subarray(0, 4))).toEqual([0x50, 0x57, 0x31, 0x49]);
      expect(conn.received.some((f) => f.op === 'pty.session_input')).toBe(false);
      expect(client.lastSequence).toBe(server.seq);
    });

    it('still accepts JSON Output (replay stays JSON under the binary subprotocol)', async () => {
      server.output('before');
      client = clientFor(server, { mode: 'binary' });
      await client.connect();
      const out = client.next('output');
      await client.join({ replayFrom: 0 });
      const ev = await out;
      expect(text(ev.data)).toBe('before');
      expect(ev.replayed).toBe(true);
    });
  });
});
