import { closeSync } from 'node:fs';
import type { Clock, PtyExit } from '@pty-ws/ports';
import type { TerminalSize } from '@pty-ws/protocol';
import type { PathWatch } from '../path-watch';
import { PtyMasterProcess } from '../pty-master-process';
import { FdWriter } from './fd-writer';
import { MasterReader } from './master-reader';
import type { NativePty, PtyPair } from '../node-pty-private';
import type { SpawnedProgram } from './pty-spawner';

/**
 * A program the spawner started on a pty pair this process opened: the agent reads and writes the
 * master here, as node-pty did for a program it forked. `onExit` comes after the last byte of
 * output: the agent keeps its own slave fd open until the tty has been quiet (`whenQuiet`) since
 * the exit (the kernel discards unread output when the last slave fd closes), as
 * node-pty-host.ts does for node-pty's own exit.
 */
export class SpawnedPtyProcess extends PtyMasterProcess {
  private readonly reader: MasterReader;
  private readonly writer: FdWriter;
  private closed = false;
  /** The program has ended: its pid may already be another process's. */
  private ended = false;

  constructor(
    private readonly pair: PtyPair,
    private readonly program: SpawnedProgram,
    private readonly native: NativePty,
    /** The stream relay's binary (stream-relay.ts), or undefined to read every byte on the event loop. */
    relayBinary: string | undefined,
    clock: Clock,
    watch: PathWatch,
  ) {
    super(clock);
    this.reader = new MasterReader({
      fd: pair.master,
      onData: (chunk) => this.received(chunk),
      relayBinary,
      clock,
      watch,
    });
    this.writer = new FdWriter(pair.master);
    program.onExit((exit) => this.drainThen(exit));
  }

  get pid(): number {
    return this.program.pid;
  }

  write(data: Uint8Array): void {
    this.writer.write(data);
  }

  resize(size: TerminalSize): void {
    if (this.closed) return;
    this.native.resize(this.pair.master, size.cols, size.rows);
  }

  kill(signal?: string): void {
    if (this.ended) return;
    try {
      process.kill(this.pid, (signal ?? 'SIGHUP') as NodeJS.Signals);
    } catch {
      // Already gone.
    }
  }

  /** Whether the stream relay reads the tty now, rather than the event loop. */
  get relaying(): boolean {
    return this.reader.relaying;
  }

  readers(count: number): void {
    this.reader.readers(count);
  }

  protected stopReading(): void {
    this.reader.pause();
  }

  protected startReading(): void {
    this.reader.resume();
  }

  private drainThen(exit: PtyExit): void {
    this.ended = true;
    this.whenQuiet(this.clock.now(), () => void this.close().then(() => this.exited(exit)));
  }

  private async close(): Promise<void> {
    this.closed = true;
    await this.writer.dispose(); // no write may still run on the master when it is closed
    // Read to the end first: the slave fd is closed after, so the kernel cannot discard what the
    // tty still holds.
    await this.reader.close();
    try {
      closeSync(this.pair.slave);
    } catch {
      // already closed
    }
  }
}
