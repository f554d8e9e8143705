import { readSync } from 'node:fs';
import type { OnReadOpts, SocketConstructorOpts } from 'node:net';
import { ReadStream } from 'node:tty';
import type { Clock, ClockTimer } from '@pty-ws/ports';
import type { PtyReadPath } from '@pty-ws/telemetry';
import type { PathWatch } from '../path-watch';
import { setReading } from './libuv-stream';
import { RELAY_BAR_AFTER_HOLD_MS, RELAY_MAX_READERS } from '@pty-ws/ports';
import { StreamRelay } from './stream-relay';

/** A session counts as streaming once a window of this long has brought this much output. */
const STREAM_WINDOW_MS = 50;
const STREAM_BYTES = 256 * 1024;
/**
 * The relay is stopped once a session has been quiet this long. Long enough that a session printing
 * in bursts keeps it: each start forks the agent (2.5–6 ms of a blocked event loop at 90–230 MB RSS).
 */
const RELAY_QUIET_MS = 2000;
/*
 * The relay's part in the output flow rule (constants in @pty-ws/ports output-flow.ts):
 * - After its output was held (readers, the mirror or the archive behind), a session's relay stops
 *   and is not started again for RELAY_BAR_AFTER_HOLD_MS: reading the tty faster only helps while
 *   whoever consumes it keeps up (with 100 observers of one stream and a relay, output was held
 *   for them 96 times in six rounds, 68 without).
 * - The relay reads for a session with at most RELAY_MAX_READERS readers. With more, they, not the
 *   tty, set the pace: with 100 observers of one 50 MB stream, a relay at the start of each round
 *   made readers fall behind and be skipped far more often (175 against 2 over 20 rounds) and the
 *   fan-out 13 % slower (median of 20 alternating pairs; it won 4).
 */

/**
 * What every master's reads land in before `onData` gets a copy: one for the process, since a read
 * is copied out before the event loop makes the next (64 KiB per session was +70 KiB of memory per
 * idle session in the bench).
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
/** What `close` reads of the tty at most: far more than a tty holds, and a bound on a writer that goes on. */
const FINAL_READ_MAX = 1024 * 1024;

export interface MasterReaderOptions {
  fd: number;
  onData: (chunk: Buffer) => void;
  /** The stream relay's binary; undefined: the event loop reads every byte. */
  relayBinary: string | undefined;
  clock: Clock;
  /** Told which path reads (`ptyws_pty_read_path`) and when a relay fails. */
  watch: PathWatch;
}

/**
 * Reads a pty master for SpawnedPtyProcess, in order, exactly once. On the event loop while output
 * is light: a keystroke's echo takes no extra hop. While a session streams (STREAM_BYTES within
 * STREAM_WINDOW_MS), through the stream relay (stream-relay.ts), a process that reads the tty while
 * the event loop frames and sends the last batch. Only one of them reads at a time: the event
 * loop's reads are stopped before the relay starts, and started again only after the relay's last
 * byte.
 */
export class MasterReader {
  private readonly tty: ReadStream;
  private readonly fd: number;
  private readonly onData: (chunk: Buffer) => void;
  private relayBinary: string | undefined;
  private readonly clock: Clock;
  private readonly watch: PathWatch;
  /** Who reads now, as `ptyws_pty_read_path` counts it; undefined once closed. */
  private path: PtyReadPath | undefined;
  private relay: StreamRelay | undefined;
  private paused = false;
  private closed = false;
  private windowStart = 0;
  private windowBytes = 0;
  private lastRelayData = 0;
  private relayBarredUntil = 0;
  private readerCount = 0;
  private quietCheck: ClockTimer | undefined;

  constructor(opts: MasterReaderOptions) {
    const fd = (this.fd = opts.fd);
    this.onData = opts.onData;
    this.relayBinary = opts.relayBinary;
    this.clock = opts.clock;
    this.watch = opts.watch;
    // net.Socket takes `onread` (its type lists it only for connect()).
    const options: SocketConstructorOpts & { onread: OnReadOpts } = {
      onread: { buffer: READ_BUFFER, callback: this.fromTty },
    };
    this.tty = new ReadStream(fd, options);
    // EAGAIN when a read finds nothing yet; EIO once every slave fd is closed. Neither is news:
    // the exit comes from the spawner.
    this.tty.on('error', () => undefined);
    this.readTty(true);
    this.readBy('event_loop');
  }

  /** Whether the relay is reading now (for tests). */
  get relaying(): boolean {
    return this.relay !== undefined;
  }

  pause(): void {
    this.paused = true;
    this.relayBarredUntil = this.clock.monotonic() + RELAY_BAR_AFTER_HOLD_MS;
    if (this.relay) this.relay.pause();
    else this.readTty(false);
  }

  resume(): void {
    this.paused = false;
    if (!this.relay) return this.readTty(true);
    this.relay.resume();
    // Output was held: the event loop reads again once the relay has handed over what it read.
    void this.relay.stop();
  }

  /** The session's readers now: past RELAY_MAX_READERS a running relay hands back to the event loop. */
  readers(count: number): void {
    this.readerCount = count;
    if (count > RELAY_MAX_READERS && this.relay && !this.paused) void this.relay.stop();
  }

  /**
   * Stops reading; then the master may be closed. Called once the program has ended, so what is
   * left is bounded (the relay's buffer and pipe, ~330 KiB, and the tty's few KiB): it is all
   * handed over, held or not. Dropping it (a relay killed while output was held for the mirror,
   * the archive or readers) silently cut the end off a session's output.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.relay) {
      this.relay.resume();
      await this.relay.stop();
    }
    this.readBy(undefined);
    this.readRest();
    this.tty.destroy();
  }

  /**
   * What the tty still holds, read at once: what a stopped relay left, or what a held reader did
   * not take. At most FINAL_READ_MAX: a program's child that kept the tty and still writes could
   * otherwise keep this loop going.
   */
  private readRest(): void {
    for (let total = 0; total < FINAL_READ_MAX;) {
      let n = 0;
      try {
        n = readSync(this.fd, READ_BUFFER, 0, READ_BUFFER.length, null);
      } catch {
        return; // EAGAIN: nothing more; EIO: every slave is closed
      }
      if (n <= 0) return;
      total += n;
      this.onData(Buffer.from(READ_BUFFER.subarray(0, n)));
    }
  }

  /** `onread`'s callback: true keeps reading (a `pause()` from `onData` stops it all the same). */
  private readonly fromTty = (n: number, buf: Uint8Array): boolean => {
    // A copy: the read buffer is reused by the next read.
    this.onData(Buffer.from(buf.subarray(0, n)));
    if (this.relayBinary && this.streaming(n)) this.startRelay(this.relayBinary);
    return true;
  };

  private streaming(n: number): boolean {
    const now = this.clock.monotonic();
    if (now - this.windowStart > STREAM_WINDOW_MS) {
      this.windowStart = now;
      this.windowBytes = 0;
    }
    this.windowBytes += n;
    return this.windowBytes >= STREAM_BYTES;
  }

  private startRelay(binary: string): void {
    if (this.closed || this.paused || this.readerCount > RELAY_MAX_READERS) return;
    if (this.clock.monotonic() < this.relayBarredUntil) return;
    this.readTty(false);
    this.readBy('stream_relay');
    this.lastRelayData = this.clock.monotonic();
    const relay = new StreamRelay(binary, this.fd, (chunk) => {
      this.lastRelayData = this.clock.monotonic();
      this.onData(chunk);
    });
    this.relay = relay;
    this.quietCheck = this.clock
      .setInterval(() => {
        if (!this.paused && this.clock.monotonic() - this.lastRelayData >= RELAY_QUIET_MS) void relay.stop();
      }, RELAY_QUIET_MS / 8)
      .unref();
    void relay.ended.then((clean) => this.relayEnded(clean));
  }

  private relayEnded(clean: boolean): void {
    this.quietCheck?.cancel();
    this.relay = undefined;
    this.windowBytes = 0;
    // It could not start, or was killed: this reader stays on the event loop from now on rather
    // than start a relay again and again.
    if (!clean) this.relayBinary = undefined;
    if (!clean && !this.closed)
      this.watch.failed(
        'stream_relay',
        'stream relay ended abnormally: this session reads on the event loop from now on',
        {
          fd: this.fd,
        },
      );
    if (this.closed) return;
    this.readBy('event_loop');
    if (!this.paused) this.readTty(true);
  }

  /** Moves this session's count in `ptyws_pty_read_path` to `path` (undefined: no longer read). */
  private readBy(path: PtyReadPath | undefined): void {
    if (path === this.path) return;
    if (this.path) this.watch.reading(this.path, -1);
    if (path) this.watch.reading(path, 1);
    this.path = path;
  }

  private readTty(on: boolean): void {
    setReading(this.tty, on);
  }
}
