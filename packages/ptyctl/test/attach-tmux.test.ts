/**
 * `ptyctl attach` in a real terminal: a private tmux server runs the built CLI against a real
 * server; keys go in with send-keys and the picture comes back with capture-pane.
 */
import { createServer, type Server, type Socket, connect } from 'node:net';
import WebSocket from 'ws';
import { PtyClient } from '@pty-ws/client';
import { createSession, startTestServer, waitUntil, type TestServer } from '@pty-ws/testkit';
import { CLI, ensureBuilt } from './cli';
import { sh, Tmux } from './tmux';

jest.setTimeout(45_000);

let server: TestServer;
let tmux: Tmux;

beforeAll(async () => {
  ensureBuilt();
  server = await startTestServer();
  tmux = new Tmux();
}, 120_000);

afterAll(async () => {
  tmux?.destroy();
  await server?.stop();
});

/** A login-less /bin/sh with a prompt that is easy to find on the screen. */
async function newShellSession(): Promise<string> {
  const s = await createSession(server, { argv: ['/bin/sh'], cols: 80, rows: 24, env: { PS1: 'rp> ' } });
  return s.session_id;
}

/** Runs `ptyctl attach` in a new tmux session; stderr (status lines) goes to a log file. */
function startAttach(
  name: string,
  sessionId: string,
  size: [number, number],
  extra: string[] = [],
  url = server.httpUrl,
): void {
  const args = ['attach', sessionId, ...extra].map(sh).join(' ');
  const command = tmux.logged(name, `${sh(process.execPath)} ${sh(CLI)} ${args}`);
  const env = { PTYWS_URL: url, PTYWS_TOKEN: server.adminToken, PTYWS_INSTANCE: server.instanceId };
  tmux.start(name, size[0], size[1], env, command);
}

/** Another controller types into the session through the SDK, the way a colleague would. */
async function typeElsewhere(sessionId: string, line: string, expectOutput: string): Promise<void> {
  const client = new PtyClient({
    url: server.attachUrl(sessionId),
    token: server.adminToken,
    WebSocket,
    autoReconnect: false,
  });
  let seen = '';
  client.on('output', (o) => (seen += Buffer.from(o.data).toString('utf8')));
  await client.connect();
  await client.join({ role: 'controller' });
  client.input(`${line}\r`);
  await waitUntil(() => seen.includes(expectOutput), 10_000, `"${expectOutput}" from the session`);
  await client.leave();
}

describe('ptyctl attach (under tmux)', () => {
  it('types, resizes the remote PTY, detaches with Ctrl-] d and re-attaches with nothing lost', async () => {
    const id = await newShellSession();
    startAttach('a', id, [80, 24]);
    await tmux.waitForLine('a', 'rp>');

    tmux.type('a', 'echo hi');
    await tmux.waitForLine('a', 'hi');

    tmux.type('a', 'stty size');
    await tmux.waitForLine('a', '24 80');
    // SIGWINCH → debounced pty.session_resize; retype until the remote shell sees the new size.
    tmux.run('resize-window', '-t', 'a', '-x', '100', '-y', '30');
    await waitUntil(
      () => {
        if (tmux.lines('a').includes('30 100')) return true;
        tmux.type('a', 'stty size');
        return false;
      },
      10_000,
      'the remote PTY to report 30 100',
      500,
    );

    tmux.keys('a', 'C-]', 'd');
    expect(await tmux.waitForExit('a')).toBe(0);
    expect(tmux.log('a.log')).toContain('[ptyctl] detached');

    // Output produced while nobody from here is attached.
    await typeElsewhere(id, 'echo away-$((6*7))', 'away-42');

    // A fresh pane (nothing on it from before), binary subprotocol this time.
    startAttach('b', id, [100, 30], ['--binary']);
    await tmux.waitForLine('b', 'away-42');
    const screen = tmux.lines('b');
    expect(screen).toEqual(expect.arrayContaining(['hi', '30 100', 'away-42']));
    expect(screen.indexOf('hi')).toBeLessThan(screen.indexOf('30 100'));
    expect(screen.indexOf('30 100')).toBeLessThan(screen.indexOf('away-42'));

    tmux.type('b', 'echo back-$((1+1))');
    await tmux.waitForLine('b', 'back-2');
    tmux.keys('b', 'C-]', 'd');
    expect(await tmux.waitForExit('b')).toBe(0);
  });

  it('attaches read-only with --observe: keys are not sent, the picture follows', async () => {
    const id = await newShellSession();
    startAttach('o', id, [80, 24], ['--observe']);
    await tmux.waitForLine('o', 'rp>');
    tmux.type('o', 'echo from-observer');
    await typeElsewhere(id, 'echo seen-$((2+3))', 'seen-5');
    await tmux.waitForLine('o', 'seen-5');
    expect(tmux.lines('o').join('\n')).not.toContain('from-observer');
    expect(tmux.log('o.log')).toContain('read-only');
    tmux.keys('o', 'C-]', 'd');
    expect(await tmux.waitForExit('o')).toBe(0);
  });

  it('reconnects after the connection drops, replays what it missed and says so on stderr', async () => {
    const proxy = await startProxy(server.node.port);
    try {
      const id = await newShellSession();
      startAttach('r', id, [80, 24], [], `http://127.0.0.1:${proxy.port}`);
      await tmux.waitForLine('r', 'rp>');
      tmux.type('r', 'echo one');
      await tmux.waitForLine('r', 'one');

      proxy.pause(); // drops the live connection and refuses new ones for now
      await waitUntil(() => tmux.log('r.log').includes('connection lost'), 10_000, 'the "connection lost" status line');
      await typeElsewhere(id, 'echo during-$((2*3))', 'during-6');
      proxy.resume();

      await tmux.waitForLine('r', 'during-6');
      await waitUntil(
        () => tmux.log('r.log').includes('[ptyctl] reconnected'),
        10_000,
        'the "reconnected" status line',
      );
      tmux.type('r', 'echo two');
      await tmux.waitForLine('r', 'two');
      tmux.keys('r', 'C-]', 'd');
      expect(await tmux.waitForExit('r')).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('leaves with exit code 0 and a status line when the session ends', async () => {
    const id = await newShellSession();
    startAttach('e', id, [80, 24]);
    await tmux.waitForLine('e', 'rp>');
    tmux.type('e', 'exit 3');
    expect(await tmux.waitForExit('e')).toBe(0);
    expect(tmux.log('e.log')).toMatch(/\[ptyctl\] session closed \(.*exit code 3\)/);
  });

  it("exits with the session's exit code with --exit-status", async () => {
    const id = await newShellSession();
    startAttach('s', id, [80, 24], ['--exit-status']);
    await tmux.waitForLine('s', 'rp>');
    tmux.type('s', 'exit 7');
    expect(await tmux.waitForExit('s')).toBe(7);
  });

  it('warns an observer whose terminal is smaller than the session, again after a resize', async () => {
    const id = await newShellSession(); // 80x24
    startAttach('w', id, [60, 20], ['--observe']);
    const warning = (size: string): string => `the session is 80x24 but this terminal is ${size}`;
    await waitUntil(() => tmux.log('w.log').includes(warning('60x20')), 10_000, 'the size warning');
    expect(tmux.log('w.log')).toContain('make this window at least 80x24');
    tmux.run('resize-window', '-t', 'w', '-x', '70', '-y', '22');
    await waitUntil(() => tmux.log('w.log').includes(warning('70x22')), 10_000, 'the warning after a resize');
    tmux.run('resize-window', '-t', 'w', '-x', '90', '-y', '30'); // fits now: nothing more to say
    tmux.keys('w', 'C-]', 'd');
    expect(await tmux.waitForExit('w')).toBe(0);
    expect(tmux.log('w.log').match(/the session is 80x24/g)).toHaveLength(2);
  });
});

interface Proxy {
  port: number;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

/** A TCP forwarder whose connections the test can cut, standing in for a flaky network. */
function startProxy(targetPort: number): Promise<Proxy> {
  const sockets = new Set<Socket>();
  let paused = false;
  const srv: Server = createServer((client) => {
    if (paused) return client.destroy();
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return new Promise((resolve) => {
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        port,
        pause: () => {
          paused = true;
          for (const s of sockets) s.destroy();
        },
        resume: () => {
          paused = false;
        },
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            srv.close(() => done());
          }),
      });
    });
  });
}
