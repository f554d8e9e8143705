/**
 * The relay floor (loadtest/src/relay-floor-child.ts) stands for a terminal server with nothing in
 * it, so it must deliver every byte, as the services do. Before it paused its PTY for a backed-up
 * socket, uWS dropped frames past its default bound (64 KiB): a reader that fell behind lost bytes,
 * and when the end marker was among them the bench's relay stream never ended (a run timed out).
 * A real relay process, a real PTY, a real socket whose reader pauses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import WebSocket from 'ws';
import { waitUntil } from '@pty-ws/testkit';
import { FLOOD_END, floodArgv } from '../../loadtest/src/programs';

const CHILD = join(__dirname, '..', '..', 'loadtest', 'dist', 'relay-floor-child.js');
const RANDOM_BYTES = 6_000_000;

/** What the PTY prints for floodArgv(n): base64 in 76-column lines, each ended CR LF, then the marker. */
function floodOutputBytes(n: number): number {
  const chars = 4 * Math.ceil(n / 3);
  return chars + 2 * Math.ceil(chars / 76) + `\r\n${FLOOD_END}\r\n`.length;
}

describe('relay floor', () => {
  let child: ChildProcess | undefined;
  let client: WebSocket | undefined;
  afterEach(() => {
    client?.terminate();
    child?.kill('SIGKILL');
  });

  it('delivers a whole stream to a reader that pauses: the PTY waits, nothing is dropped', async () => {
    const relay = spawn(process.execPath, [CHILD, JSON.stringify(floodArgv(RANDOM_BYTES))], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child = relay;
    const port = await new Promise<string>((resolve, reject) => {
      let out = '';
      relay.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /port (\d+)/.exec(out);
        if (m) resolve(m[1] as string);
      });
      relay.once('exit', (code) => reject(new Error(`relay floor exited (${code})`)));
    });
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
    client = ws;
    const chunks: Buffer[] = [];
    ws.on('message', (d: Buffer) => chunks.push(d));
    await new Promise((resolve) => ws.once('open', resolve));
    const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;

    ws.send(Buffer.from('\r'), { binary: true }); // the flood waits for a line
    socket.pause();
    await new Promise((r) => setTimeout(r, 1000)); // the relay's socket backs up meanwhile
    socket.resume();
    const received = (): Buffer => Buffer.concat(chunks);
    await waitUntil(() => received().includes(FLOOD_END), 30_000, 'the end marker', 50);
    // Two more when the Enter that starts the flood is echoed before `stty -echo` takes effect.
    const extra = received().length - floodOutputBytes(RANDOM_BYTES);
    expect(extra === 0 || extra === 2 ? 'every byte' : `${extra} bytes off`).toBe('every byte');
  });
});
