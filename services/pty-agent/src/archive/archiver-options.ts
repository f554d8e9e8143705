/**
 * The transcript archiver's knobs and their defaults, apart from the archiver itself: the agent's
 * configuration (create-agent.ts) and the session's output path name them without the class.
 */
import type { TranscriptArchiveMetrics } from '@pty-ws/telemetry';
import type { ArchiveQuota } from './archive-quota';

export interface ArchiverOptions {
  /** A chunk holds at most this many entries … */
  chunkFrames: number;
  /** … and closes once it holds this many bytes of output. */
  chunkBytes: number;
  /** A partial chunk waits at least this long after the oldest waiting entry was appended … */
  flushMs: number;
  /**
   * … and then, as a full chunk does at once, for the session's output to pause for `quietMs`:
   * archiving yields to live output, unless `maxDeferBytes` of output are waiting or the oldest
   * waiting entry is `maxDeferMs` old. The log holds every unarchived entry anyway (its trim is
   * guarded by `archivedThrough`), so waiting loses nothing.
   */
  quietMs: number;
  maxDeferMs: number;
  maxDeferBytes: number;
  /**
   * Output the archiver holds itself while it waits; past it, it lets go of the oldest half and
   * reads those entries back from the log when it writes them (in cluster mode the log is
   * JetStream, so a deferred stream is not held twice, once in the agent's memory).
   */
  maxHeldBytes: number;
  logger: { warn(obj: object, msg: string): void };
  /** Chunks and bytes written, failed writes, frames waiting (`ptyws_transcript_*`). */
  metrics?: TranscriptArchiveMetrics;
  /** The byte quotas (archive-quota.ts); absent: none. */
  quota?: ArchiveQuota;
}

export const DEFAULT_ARCHIVER_OPTIONS: Omit<ArchiverOptions, 'logger' | 'metrics'> = {
  chunkFrames: 512,
  // Each chunk costs a handover to the compressor thread and ~10 file operations with two
  // fdatasyncs (single-node), or one INSERT: at 256 KiB those were ~2 ms of event-loop time per MB
  // of a full-speed stream. 4 MiB saved another 2-6 ms of CPU per MB (all threads), but the chunk
  // being built, framed and compressed is held besides the log's copy: under a `yes` flood the
  // single node's RSS grew ~15 MB more, past the slow-consumer bound (tests/security). A 1 MiB
  // chunk still decodes in a few ms for a range read.
  chunkBytes: 1024 * 1024,
  flushMs: 1000,
  // Writing a chunk costs the stream it is written beside: on two cores a 50 MB stream ran
  // 21-23 MB/s with chunks written as they filled and 27-29 MB/s with them written after it
  // (docs/design-notes.md, "Archiving yields to live output"). A pause of 1 s is where a burst has ended: readers are still taking its
  // tail for a while after the PTY's last byte (what the edge and the kernel's socket buffers
  // hold; 0.4-0.5 s in the cluster's 100-reader fan-out, where with 100 ms a 50 MB chunk write
  // ran beside the readers in some rounds). 48 MiB and 10 s bound what an endless stream leaves
  // unarchived in the log. 4 MiB held: the rest is read back.
  quietMs: 1000,
  maxDeferMs: 10_000,
  maxDeferBytes: 48 * 1024 * 1024,
  maxHeldBytes: 4 * 1024 * 1024,
};
