import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { PtyExit, PtyHost, PtyProcess, SessionSpec } from '@pty-ws/ports';
import type { TerminalSize } from '@pty-ws/protocol';
import { settle, uniqueId, waitFor } from './support';

export interface PtyHostFixture {
  host: PtyHost;
  /** A spec this host runs: its backend and session class, the given program and size. */
  spec(argv: string[], size: TerminalSize): SessionSpec;
  /** Ends what the host left behind (multiplexer servers, state directories). */
  cleanup(): Promise<void>;
}

/** Escape sequences out: a multiplexer client repaints its screen, so text comes with cursor moves. */
const ESCAPES = /\x1b(?:\[[0-9;?<=>]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78DEHMc])/g;

/** One spawned process and everything it said, as text without escape sequences. */
class Watched {
  raw = '';
  exit: PtyExit | undefined;
  /** The text seen when the exit came: what "no lost tail" is judged on. */
  textAtExit: string | undefined;

  constructor(readonly proc: PtyProcess) {
    proc.onData((d) => (this.raw += Buffer.from(d).toString('utf8')));
    proc.onExit((e) => {
      this.textAtExit = this.text;
      this.exit = e;
    });
  }

  get text(): string {
    return this.raw.replace(ESCAPES, '').replace(/\r/g, '');
  }

  async sees(re: RegExp, what: string): Promise<void> {
    await waitFor(() => re.test(this.text), what, 10_000).catch((err: Error) => {
      throw new Error(`${err.message}; got ${JSON.stringify(this.text.slice(-300))}`);
    });
  }

  async exited(): Promise<PtyExit> {
    await waitFor(() => this.exit !== undefined, 'the exit', 10_000);
    return this.exit!;
  }
}

const SIZE: TerminalSize = { cols: 80, rows: 24 };

/**
 * The PtyHost contract (ports/src/pty-host.ts) every backend keeps: the native node-pty host and
 * the multiplexer hosts (tmux, screen), whose output reaches the agent through a client that
 * repaints a screen rather than as the raw stream. So output is compared as text.
 */
export function ptyHostContract(name: string, makeHost: () => Promise<PtyHostFixture>): void {
  describe(`PtyHost contract: ${name}`, () => {
    let fixture: PtyHostFixture;
    const running: PtyProcess[] = [];

    beforeAll(async () => {
      fixture = await makeHost();
    });
    afterAll(async () => {
      await fixture?.cleanup();
    });
    afterEach(() => {
      for (const p of running.splice(0)) {
        try {
          p.kill('SIGKILL');
        } catch {
          /* already gone */
        }
      }
    });

    async function spawn(argv: string[], size: TerminalSize = SIZE): Promise<PtyProcess> {
      const proc = await fixture.host.spawn(uniqueId('pty').slice(0, 40), fixture.spec(argv, size));
      running.push(proc);
      return proc;
    }

    it('spawns the program with a pid, in a terminal of the given size', async () => {
      const w = new Watched(await spawn(['/bin/sh', '-c', 'stty size; exec cat'], { cols: 91, rows: 27 }));
      expect(w.proc.pid).toBeGreaterThan(0);
      await w.sees(/27 91\n/, 'the terminal size');
    });

    it('delivers what is written to the program and what it answers', async () => {
      const w = new Watched(await spawn(['/bin/sh']));
      w.proc.write(Buffer.from('echo answer-$((6 * 7))-end\n'));
      await w.sees(/answer-42-end/, "the shell's answer");
    });

    it('resizes the terminal', async () => {
      const w = new Watched(await spawn(['/bin/sh']));
      w.proc.write(Buffer.from('stty size\n'));
      await w.sees(/24 80\n/, 'the first size');
      w.proc.resize({ cols: 100, rows: 30 });
      // The program sees the new size once the host has applied it (a multiplexer resizes its
      // window when its client's terminal changes): ask again until it does.
      for (let attempt = 1; !/30 100\n/.test(w.text); attempt++) {
        if (attempt > 20) throw new Error(`the program never saw 30 100; got ${JSON.stringify(w.text.slice(-300))}`);
        w.proc.write(Buffer.from('stty size\n'));
        await settle(250);
      }
    });

    it("reports the program's exit code after its output", async () => {
      const w = new Watched(await spawn(['/bin/sh', '-c', 'echo before-exit; exit 3']));
      expect(await w.exited()).toEqual({ exitCode: 3, signal: null });
      expect(w.textAtExit).toContain('before-exit');
    });

    it('drains before the exit: the tail of a burst arrives before onExit', async () => {
      const w = new Watched(await spawn(['/bin/sh', '-c', 'seq 1 20000; echo tail-marker-end']));
      await w.exited();
      expect(w.textAtExit).toMatch(/20000\ntail-marker-end/);
    });

    it('holds output and exit from before the first listener, for every listener of that tick', async () => {
      const proc = await spawn(['/bin/sh', '-c', 'echo held-for-all; exit 5']);
      // Nobody listens while the program prints and exits (a caller awaiting real I/O first).
      await settle(800);
      const order: string[] = [];
      const a = new Watched(proc);
      const b = new Watched(proc);
      proc.onExit(() => order.push(`exit after ${/held-for-all/.test(a.text) ? 'output' : 'nothing'}`));
      expect(a.raw).toBe(''); // handed over on a microtask, after the caller's setup
      expect(await a.exited()).toEqual({ exitCode: 5, signal: null });
      await b.exited();
      expect(a.text).toContain('held-for-all');
      expect(b.text).toContain('held-for-all');
      expect(order).toEqual(['exit after output']);
    });

    it('kill ends the program, reported as an exit by signal', async () => {
      const w = new Watched(await spawn(['/bin/sh', '-c', 'echo started-to-kill; exec sleep 60']));
      await w.sees(/started-to-kill/, 'the program running');
      w.proc.kill();
      const exit = await w.exited();
      expect(exit.exitCode).toBeNull();
      expect(exit.signal).not.toBeNull();
    });
  });
}
