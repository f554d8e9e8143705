/**
 * The agent's reaches into private APIs, one adapter file per dependency: node-pty's native
 * binding and UnixTerminal members (hosts/node-pty-private.ts) and libuv's stream handle under a
 * net.Socket (hosts/spawner/libuv-stream.ts). These fail loudly, naming the member and the
 * dependency's version, the day an upgrade changes them; the agent itself would fall back
 * (node-pty forking it, node-pty's own writes and exit) or throw on the first pause.
 */
import { closeSync } from 'node:fs';
import { ReadStream } from 'node:tty';
import * as pty from 'node-pty';
import {
  libuvStreamProblem,
  loadNativePty,
  nodePtyVersion,
  setReading,
  unixTerminalProblem,
} from '@pty-ws/pty-agent/internal';

/** Fails with `problem` as the whole message (no diff to read past). */
function expectNoProblem(problem: string | undefined): void {
  if (problem !== undefined) throw new Error(`${problem}: update the adapter (see its header)`);
}

describe("node-pty's private API (node-pty-private.ts)", () => {
  it('is loaded through lib/utils with open and resize', () => {
    const loaded = loadNativePty();
    expectNoProblem('problem' in loaded ? loaded.problem : undefined);
    expect(nodePtyVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("keeps a UnixTerminal's fd, write queue, slave path, tty socket and close flag where the adapter reads them", async () => {
    const term = pty.spawn('/bin/sh', ['-c', 'exit 0'], { cols: 80, rows: 24, cwd: '/tmp', encoding: null });
    const exited = new Promise<void>((resolve) => term.onExit(() => resolve()));
    try {
      expectNoProblem(unixTerminalProblem(term));
    } finally {
      await exited;
    }
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
    const term = { fd: 3, _writeStream: { _writeQueue: [] } } as unknown as pty.IPty;
    expect(unixTerminalProblem(term)).toBe(`node-pty ${nodePtyVersion()}: UnixTerminal.ptsName is not a string`);
  });
});
