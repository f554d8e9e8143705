/**
 * The agent's reaches into private APIs, one adapter file per dependency: node-pty's native
 * binding through `lib/utils` (hosts/spawner/native-pty.ts) and libuv's stream handle under a
 * net.Socket (hosts/spawner/libuv-stream.ts). These fail loudly, naming the member and the
 * dependency's version, the day an upgrade changes them; the agent itself would fall back
 * (node-pty forking it) or throw on the first pause.
 */
import { closeSync } from 'node:fs';
import { ReadStream } from 'node:tty';
import { libuvStreamProblem, loadNativePty, nodePtyVersion, setReading } from '@pty-ws/pty-agent/internal';

/** Fails with `problem` as the whole message (no diff to read past). */
function expectNoProblem(problem: string | undefined): void {
  if (problem !== undefined) throw new Error(`${problem}: update the adapter (see its header)`);
}

describe("node-pty's native binding (native-pty.ts)", () => {
  it('is loaded through lib/utils with open and resize', () => {
    const loaded = loadNativePty();
    expectNoProblem('problem' in loaded ? loaded.problem : undefined);
    expect(nodePtyVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('opens a pty pair and resizes it', () => {
    const loaded = loadNativePty();
    if (!('native' in loaded)) throw new Error(loaded.problem);
    const pair = loaded.native.open(80, 24);
    try {
      expect(pair.pty).toMatch(/^\/dev\/pts\/\d+$/);
      expect(() => loaded.native.resize(pair.master, 100, 30)).not.toThrow();
    } finally {
      closeSync(pair.slave);
      closeSync(pair.master);
    }
  });
});

describe("libuv's stream handle under a net.Socket (libuv-stream.ts)", () => {
  it('has readStart, readStop and the reading flag on a pty master, and setReading drives them', () => {
    const loaded = loadNativePty();
    if (!('native' in loaded)) throw new Error(loaded.problem);
    const pair = loaded.native.open(80, 24);
    const tty = new ReadStream(pair.master);
    tty.on('error', () => undefined);
    try {
      expectNoProblem(libuvStreamProblem(tty));
      const handle = (tty as unknown as { _handle: { reading: boolean } })._handle;
      setReading(tty, true);
      expect(handle.reading).toBe(true);
      setReading(tty, false);
      expect(handle.reading).toBe(false);
    } finally {
      tty.destroy();
      closeSync(pair.slave);
    }
  });

  it('names what is missing, with the version, when the member is gone', () => {
    const fake = { _handle: { reading: false, readStop: () => 0 } } as unknown as ReadStream;
    expect(libuvStreamProblem(fake)).toBe(`node ${process.version}: net.Socket#_handle.readStart is not a function`);
    expect(libuvStreamProblem({} as ReadStream)).toBe(`node ${process.version}: net.Socket has no _handle`);
  });
});
