import { systemClock, type Clock, type PtyExit, type PtyProcess } from '@pty-ws/ports';
import type { TerminalSize } from '@pty-ws/protocol';
import { HeldOutput, LatchedEvent } from './held-events';

/** After exit, the tty counts as drained once it has been silent this long. */
const DRAIN_QUIET_MS = 50;
/** Upper bound on waiting for a tty that keeps producing output after its process exited. */
const DRAIN_SAFETY_MS = 5000;

/**
 * What a PtyProcess whose master the agent reads has in common, whoever started the program
 * (node-pty forking the agent, or the spawner): output and exit held for late listeners, the time
 * of the last output (the drain before exit waits for quiet), and pausing the reader, which a
 * drain must also wait out.
 */
export abstract class PtyMasterProcess implements PtyProcess {
  lastDataAt: number;
  paused = false;
  private readonly data = new HeldOutput<Uint8Array>();
  private readonly exit = new LatchedEvent<PtyExit>();

  constructor(protected readonly clock: Clock = systemClock) {
    this.lastDataAt = clock.now();
  }

  abstract readonly pid: number;
  abstract write(data: Uint8Array): void;
  abstract resize(size: TerminalSize): void;
  abstract kill(signal?: string): void;
  protected abstract stopReading(): void;
  protected abstract startReading(): void;

  onData(listener: (data: Uint8Array) => void): void {
    this.data.subscribe(listener);
  }

  onExit(listener: (exit: PtyExit) => void): void {
    this.exit.subscribe(listener);
  }

  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.stopReading();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.startReading();
  }

  /**
   * Calls `then` once the tty has been silent DRAIN_QUIET_MS, counted from its last output and
   * from `since`, or after DRAIN_SAFETY_MS at the latest. A paused reader is never quiet: what the
   * tty holds must still be read first.
   */
  whenQuiet(since: number, then: () => void): void {
    const deadline = this.clock.now() + DRAIN_SAFETY_MS;
    const check = (): void => {
      const now = this.clock.now();
      const quiet = !this.paused && now - Math.max(this.lastDataAt, since) >= DRAIN_QUIET_MS;
      if (quiet || now >= deadline) then();
      else this.clock.setTimeout(check, DRAIN_QUIET_MS).unref();
    };
    check();
  }

  protected received(chunk: Uint8Array): void {
    this.lastDataAt = this.clock.now();
    this.data.emit(chunk);
  }

  protected exited(exit: PtyExit): void {
    this.exit.fire(exit);
  }
}
