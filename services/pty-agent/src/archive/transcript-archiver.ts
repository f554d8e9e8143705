/**
 * The transcript archiver: copies one session's log entries into its TranscriptArchive in chunks,
 * deferred while output flows. Its knobs are in archiver-options.ts, entry sizes and chunk cuts in
 * chunk-sizes.ts, the byte quotas' trimming in quota-trimmer.ts.
 */
import type { FrameLog, LogEntry, RetentionPolicy, TranscriptArchive } from '@pty-ws/ports';
import { isSequenceConflict } from '@pty-ws/ports';
import type { TranscriptArchiveMetrics } from '@pty-ws/telemetry';
import { DEFAULT_ARCHIVER_OPTIONS, type ArchiverOptions } from './archiver-options';
import { entrySize, payloadBytes, takeChunk } from './chunk-sizes';
import { QuotaTrimmer } from './quota-trimmer';

export { DEFAULT_ARCHIVER_OPTIONS, type ArchiverOptions } from './archiver-options';

/**
 * Unwritten output past which a healthy archive asks for the PTY to pause, and where it resumes.
 * Above the default `maxDeferBytes`: deferred chunks are being written by then.
 */
const BACKLOG_HIGH = 64 * 1024 * 1024;
const BACKLOG_LOW = 8 * 1024 * 1024;

/** An archiver with the defaults, the configured overrides, and the agent's logger and metrics. */
export function createArchiver(
  sessionId: string,
  archive: TranscriptArchive,
  log: FrameLog,
  config: {
    archiver?: Partial<Omit<ArchiverOptions, 'logger' | 'metrics'>>;
    logger: ArchiverOptions['logger'];
    metrics?: TranscriptArchiveMetrics;
  },
): TranscriptArchiver {
  return new TranscriptArchiver(sessionId, archive, log, {
    ...DEFAULT_ARCHIVER_OPTIONS,
    ...config.archiver,
    logger: config.logger,
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
}

/**
 * Copies one session's log entries into its TranscriptArchive in compressed chunks, off the
 * keystroke path: the sequencer hands over each entry once the log holds it (a push into an
 * array), and chunks are written later, one at a time.
 *
 * The log may only evict what `archivedThrough` covers (the owner passes it to `trim`), so an
 * entry is always in the log, the archive or both, however slow the archive is or how small the
 * retention windows are. Anything the archive misses (entries logged by a previous owner that died
 * before archiving them) is read back from the log, which still holds it for that reason.
 */
export class TranscriptArchiver {
  private buffer: LogEntry[] = [];
  private bufferedBytes = 0;
  private through: number | undefined;
  private readonly loaded: Promise<void>;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  private failures = 0;
  private broken = false;
  private closed = false;
  /** Pushed entries being written right now (out of `buffer`, not archived yet). */
  private inFlight = 0;
  /** This archiver's share of `ptyws_transcript_archive_lag_frames`, as last reported. */
  private reportedLag = 0;
  /** Output bytes of the in-flight entries not written yet. */
  private inFlightBytes = 0;
  private behind = false;
  /** When the newest waiting entry was handed over (Date.now()): output has paused since. */
  private lastPushAt = 0;
  /** When the oldest waiting entry was handed over. */
  private oldestPushAt = 0;
  /** Output is held for readers that are behind (outputHeld): a pause then is no quiet. */
  private readersHeld = false;
  /** Entries handed over and let go unwritten (maxHeldBytes): the log has them until written. */
  private letGoFrames = 0;
  private letGoBytes = 0;
  /** What the archive stores for this session, and its trimming to the byte quotas. */
  private readonly trimmer: QuotaTrimmer;
  /**
   * Told when the unwritten backlog passes BACKLOG_HIGH bytes while the archive is healthy (true),
   * and when it is back under BACKLOG_LOW, or the archive fails, or this archiver ends (false).
   * The runtime pauses the PTY meanwhile: writing is slower than a flood can be read, and every
   * unwritten entry also stays in the log. An unreachable archive does not pause sessions: there
   * the log grows, as before.
   */
  onBacklog: (behind: boolean) => void = () => {};

  constructor(
    private readonly sessionId: string,
    private readonly archive: TranscriptArchive,
    private readonly log: FrameLog,
    private readonly opts: ArchiverOptions,
  ) {
    this.trimmer = new QuotaTrimmer(sessionId, archive, opts);
    this.loaded = this.load();
  }

  /**
   * The newest sequence the archive holds; entries above it must stay in the log. 0 until the
   * archive has been asked; undefined when the archive cannot be continued (no guard then).
   */
  get archivedThrough(): number | undefined {
    if (this.broken) return undefined;
    return this.through ?? 0;
  }
  /** The retention policy, never evicting past what this archive holds yet. */
  guard(policy: RetentionPolicy): RetentionPolicy {
    const archivedThrough = this.archivedThrough;
    const droppedThrough = this.trimmer.droppedThrough;
    const dropped = droppedThrough > 0 ? { droppedThrough } : {};
    return archivedThrough === undefined ? { ...policy, ...dropped } : { ...policy, archivedThrough, ...dropped };
  }

  /** Called by the sequencer for each entry the log accepted, in order. Never blocks. */
  push(entry: LogEntry): void {
    if (this.broken) return;
    this.lastPushAt = Date.now();
    if (this.buffer.length === 0 && this.letGoFrames === 0) this.oldestPushAt = this.lastPushAt;
    this.buffer.push(entry);
    this.bufferedBytes += entrySize(entry);
    if (this.bufferedBytes > this.opts.maxHeldBytes) this.letGoOfOldest();
    this.reportLag();
    if (this.unwrittenBytes() >= this.opts.maxDeferBytes) this.schedule(0);
    // A timer set to fire sooner is kept (no timer per frame): when it fires, `due` decides
    // whether to write or to look again.
    else this.schedule(this.fullChunkWaiting() ? this.opts.quietMs : this.opts.flushMs);
  }

  /**
   * The PTY's output is held because every reader is behind (true), or flows again (false). Such a
   * pause is not the end of a burst: the readers are busy taking what was sent, and a chunk
   * written then takes the CPU they need (cluster fan-out, 100 readers of a 50 MB stream, on the
   * same two cores: the holds let 45 MB be read back from JetStream and 50 MB written to Postgres
   * mid-stream, the agent at 26-36 % of a core and Postgres at 2-8 %, instead of 21-27 % and
   * none). The quiet clock restarts when output flows again; maxDeferMs and maxDeferBytes still
   * bound the wait. (While full chunks wait, the timer runs at most quietMs apart, held or not:
   * `due` takes it from there.)
   */
  outputHeld(held: boolean): void {
    if (held === this.readersHeld) return;
    this.readersHeld = held;
    if (!held) this.lastPushAt = Date.now();
  }

  /** Archives everything the log holds beyond the archive (no live writer: closed sessions, sweeps). */
  catchUp(): Promise<void> {
    return this.runExclusive(() => this.flushAll(true));
  }

  /** Writes what is waiting; resolves once the archive holds every entry pushed so far. */
  flush(): Promise<void> {
    return this.runExclusive(() => this.flushAll(false));
  }

  /** Final flush (session closed or detached); later pushes are ignored. */
  async close(): Promise<void> {
    await this.flush().catch(() => undefined);
    this.closed = true;
    this.trimmer.forget();
    this.reportLag(); // what could not be written leaves with the archiver
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async load(): Promise<void> {
    for (let delay = 200; ; delay = Math.min(delay * 2, 10_000)) {
      try {
        const stats = await this.archive.stats(this.sessionId);
        this.through = stats.lastSeq;
        this.trimmer.loaded(stats);
        return;
      } catch (err) {
        this.warnOnce(err, 'transcript archive unreachable; frames stay in the replay log until it answers');
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
      }
    }
  }

  /** Sets the timer to fire in `delayMs`, unless it is set to fire sooner already. */
  private schedule(delayMs: number): void {
    if (this.closed) return;
    const at = Date.now() + delayMs;
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const wait = this.due(Date.now());
      if (wait > 0) this.schedule(wait);
      else this.flush().catch(() => undefined);
    }, delayMs);
    this.timer.unref();
  }

  private fullChunkWaiting(): boolean {
    return (
      this.buffer.length + this.letGoFrames >= this.opts.chunkFrames || this.unwrittenBytes() >= this.opts.chunkBytes
    );
  }

  /** Output handed over and not being written yet, held or let go. */
  private unwrittenBytes(): number {
    return this.bufferedBytes + this.letGoBytes;
  }

  /**
   * Drops the oldest entries until half of maxHeldBytes is held (the newest always stays, so the
   * flush knows where the log range it reads back ends). Once per that many bytes, not per entry.
   */
  private letGoOfOldest(): void {
    let n = 0;
    let bytes = 0;
    while (n < this.buffer.length - 1 && this.bufferedBytes - bytes > this.opts.maxHeldBytes / 2) {
      bytes += entrySize(this.buffer[n]!);
      n++;
    }
    this.buffer.splice(0, n);
    this.bufferedBytes -= bytes;
    this.letGoFrames += n;
    this.letGoBytes += bytes;
  }

  /**
   * 0 when what waits is to be written now, else how much longer to wait: what waits is written
   * once output has paused, within the deferral bounds; a partial chunk first waits `flushMs` from
   * its oldest entry. Partial chunks wait for the pause too because a session being typed in makes
   * one every `flushMs`, and writing it (the chunk's framing, the compressor thread, an INSERT in
   * cluster mode) delayed the keystrokes typed meanwhile: with 50 sessions typing in cluster mode,
   * alternating, echo p99 9.8-14.1 ms (max 35-42) with a chunk a second against 7.4-10.6 (max
   * 16-20) with chunks waiting for a pause. A person
   * typing pauses; continuous output is archived every `maxDeferMs`.
   */
  private due(now: number): number {
    if (this.buffer.length === 0 || this.failures > 0) return 0;
    const age = now - this.oldestPushAt;
    if (this.unwrittenBytes() >= this.opts.maxDeferBytes || age >= this.opts.maxDeferMs) return 0;
    if (!this.fullChunkWaiting() && age < this.opts.flushMs) return this.opts.flushMs - age;
    const quiet = this.readersHeld ? 0 : now - this.lastPushAt;
    return quiet >= this.opts.quietMs ? 0 : Math.min(this.opts.quietMs - quiet, this.opts.maxDeferMs - age);
  }

  private runExclusive(step: () => Promise<void>): Promise<void> {
    const next = (this.running ?? Promise.resolve()).then(step, step);
    this.running = next.catch(() => undefined);
    return next;
  }

  private async flushAll(toLogEnd: boolean): Promise<void> {
    await this.loaded;
    if (this.broken) return;
    let through = this.through ?? 0;
    const waiting = this.buffer.filter((e) => e.seq > through);
    const waitingBytes = payloadBytes(waiting);
    const letGo = { frames: this.letGoFrames, bytes: this.letGoBytes };
    this.buffer = [];
    this.bufferedBytes = 0;
    this.letGoFrames = 0;
    this.letGoBytes = 0;
    this.inFlight = waiting.length + letGo.frames;
    this.inFlightBytes = waitingBytes + letGo.bytes;
    this.reportLag();
    let upTo = through;
    try {
      // Whatever lies between the archive's end and the first waiting entry comes from the log:
      // entries let go (maxHeldBytes), and those a previous owner logged but did not archive.
      upTo = waiting[0] ? waiting[0].seq - 1 : toLogEnd ? (await this.log.bounds(this.sessionId)).lastSeq : through;
      while (through < upTo) {
        const missing = await this.log.read(this.sessionId, through, { toSeq: upTo, limit: this.opts.chunkFrames });
        if (missing.length === 0) break;
        through = await this.writeInChunks(missing, (chunk) => {
          // A previous owner's entries were never counted: the counts end at the waiting ones.
          this.inFlight = Math.max(waiting.length, this.inFlight - chunk.length);
          this.inFlightBytes = Math.max(waitingBytes, this.inFlightBytes - payloadBytes(chunk));
        });
      }
      this.inFlight = waiting.length;
      this.inFlightBytes = waitingBytes;
      through = await this.writeInChunks(waiting, (chunk) => {
        this.inFlight -= chunk.length;
        this.inFlightBytes -= payloadBytes(chunk);
      });
      this.failures = 0;
    } catch (err) {
      through = this.through ?? through; // chunks written before the failure count
      this.inFlight = 0;
      this.inFlightBytes = 0;
      this.opts.metrics?.archiveWriteFailed();
      if (isSequenceConflict(err)) {
        // The archive ends before the log begins (frames were evicted unarchived, e.g. by an
        // older version): it cannot be continued gaplessly, so stop guarding the log for it.
        this.broken = true;
        this.reportLag();
        this.opts.logger.warn(
          { session_id: this.sessionId, err: (err as Error).message },
          'transcript archive cannot continue this session; archiving stopped',
        );
        return;
      }
      // Keep what was not written, in order, ahead of anything pushed meanwhile; retry later.
      // Let-go entries not written yet stay let go: the next flush reads them from the log again.
      const stillLetGo = Math.max(0, Math.min(letGo.frames, upTo - through));
      this.letGoBytes += letGo.frames > 0 ? Math.round((letGo.bytes * stillLetGo) / letGo.frames) : 0;
      this.letGoFrames += stillLetGo;
      this.buffer = [...waiting.filter((e) => e.seq > through), ...this.buffer];
      this.bufferedBytes = payloadBytes(this.buffer);
      this.reportLag();
      this.failures++;
      this.warnOnce(err, 'transcript archive write failed; retrying (frames stay in the replay log)');
      this.schedule(Math.min(this.opts.flushMs * 2 ** this.failures, 30_000));
      throw err;
    }
  }

  /**
   * Writes consecutive entries in chunks within the thresholds, one after the other; `written` is
   * told of each. Returns the last sequence written (`this.through`, also set as each one lands).
   */
  private async writeInChunks(
    entries: readonly LogEntry[],
    written: (chunk: readonly LogEntry[]) => void,
  ): Promise<number> {
    for (let i = 0; i < entries.length;) {
      const chunk = takeChunk(entries, i, this.opts.chunkFrames, this.opts.chunkBytes);
      await this.archive.append(this.sessionId, chunk);
      this.opts.metrics?.archiveChunkWritten(chunk.length, payloadBytes(chunk));
      this.through = chunk[chunk.length - 1]!.seq;
      i += chunk.length;
      written(chunk);
      this.reportLag();
      await this.trimmer.chunkWritten(chunk);
    }
    return this.through ?? 0;
  }

  /** Reports the change of the frames this archiver holds unwritten (none once closed or broken). */
  private reportLag(): void {
    const lag = this.closed || this.broken ? 0 : this.buffer.length + this.letGoFrames + this.inFlight;
    if (lag !== this.reportedLag) this.opts.metrics?.archiveLag(lag - this.reportedLag);
    this.reportedLag = lag;
    const bytes = this.unwrittenBytes() + this.inFlightBytes;
    const healthy = this.failures === 0 && !this.closed && !this.broken;
    if (!this.behind && healthy && bytes > BACKLOG_HIGH) {
      this.behind = true;
      this.onBacklog(true);
    } else if (this.behind && (!healthy || bytes <= BACKLOG_LOW)) {
      this.behind = false;
      this.onBacklog(false);
    }
  }

  private warnOnce(err: unknown, msg: string): void {
    if (this.failures > 1) return;
    this.opts.logger.warn({ session_id: this.sessionId, err: (err as Error)?.message ?? String(err) }, msg);
  }
}
