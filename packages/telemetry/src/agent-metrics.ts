import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import {
  HELPER_FAILURE_SITES,
  PTY_READ_PATHS,
  type HelperFailureSite,
  type PtyReadPath,
  KEYFRAME_TRIGGERS,
  MIRROR_PARSE_ERROR_KINDS,
  OUTPUT_HOLD_REASONS,
  boundedToken,
  type KeyframeTrigger,
  type MirrorParseErrorKind,
  type OutputHoldReason,
} from './labels';
import type { AgentMetrics, SessionSample, Untrack } from './metric-types';

const KEYFRAME_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** The pty-agent's series (sessions, keyframes, flow control, the transcript archive) on the node's registry. */
export class AgentRecorders implements AgentMetrics {
  private readonly sessionSources = new Set<() => Iterable<SessionSample>>();

  private readonly keyframes: Counter<'trigger'>;
  private readonly keyframeBytes: Counter<'trigger'>;
  private readonly keyframeSeconds: Histogram<'trigger'>;
  private readonly mirrorParseErrorCounts: Counter<'kind'>;
  private readonly archiveChunks: Counter;
  private readonly archiveBytes: Counter;
  private readonly archiveFailures: Counter;
  private readonly archiveDroppedBytes: Counter;
  private readonly archiveDroppedFrames: Counter;
  private readonly archiveLagFrames: Gauge;
  private readonly frameLogWaitingBytes: Gauge;
  private readonly frameLogCuts: Counter;
  private readonly outputHeldSessions: Gauge<'reason'>;
  private readonly readPathSessions: Gauge<'path'>;
  private readonly helperFailures: Counter<'where'>;

  constructor(registry: Registry) {
    const registers = [registry];
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    const counter = (name: string, help: string) => new Counter({ name, help, registers });

    new Gauge({
      name: 'ptyws_sessions',
      help: 'Sessions owned by this agent, by lifecycle state and backend.',
      labelNames: ['state', 'backend'] as const,
      registers,
      collect() {
        this.reset();
        // The common series is always present, so sums start at 0 rather than at "no data".
        const counts = new Map<string, { state: string; backend: string; n: number }>([
          ['running\u0000native', { state: 'running', backend: 'native', n: 0 }],
        ]);
        for (const source of self.sessionSources) {
          for (const s of source()) {
            const backend = boundedToken(s.backend);
            const key = `${s.state}\u0000${backend}`;
            const entry = counts.get(key);
            if (entry) entry.n++;
            else counts.set(key, { state: s.state, backend, n: 1 });
          }
        }
        for (const { state, backend, n } of counts.values()) this.set({ state, backend }, n);
      },
    });
    this.keyframes = new Counter({
      name: 'ptyws_keyframes_total',
      help: 'Terminal snapshots made: logged on the cadence, or on demand for one connection.',
      labelNames: ['trigger'] as const,
      registers,
    });
    this.mirrorParseErrorCounts = new Counter({
      name: 'ptyws_mirror_parse_errors_total',
      help: 'Session output the headless terminal (keyframes) could not parse: malformed = bytes skipped where they stood (DEL, binary dumps), as a terminal does; exception = chunks it threw on (the rest of the chunk is lost to keyframes).',
      labelNames: ['kind'] as const,
      registers,
    });
    for (const kind of MIRROR_PARSE_ERROR_KINDS) this.mirrorParseErrorCounts.inc({ kind }, 0);
    this.keyframeBytes = new Counter({
      name: 'ptyws_keyframe_bytes_total',
      help: 'Bytes of the snapshots counted by ptyws_keyframes_total.',
      labelNames: ['trigger'] as const,
      registers,
    });
    this.keyframeSeconds = new Histogram({
      name: 'ptyws_keyframe_seconds',
      help: 'Time to make a terminal snapshot.',
      labelNames: ['trigger'] as const,
      buckets: KEYFRAME_BUCKETS,
      registers,
    });
    for (const trigger of KEYFRAME_TRIGGERS) {
      this.keyframes.inc({ trigger }, 0);
      this.keyframeBytes.inc({ trigger }, 0);
    }
    this.archiveChunks = counter(
      'ptyws_transcript_chunks_written_total',
      'Transcript archive chunks written (file in single-node mode, Postgres in cluster mode).',
    );
    this.archiveBytes = counter(
      'ptyws_transcript_bytes_written_total',
      'Payload bytes of the archived frames (terminal output plus event JSON), before compression.',
    );
    this.archiveFailures = counter(
      'ptyws_transcript_write_failures_total',
      'Transcript archive chunk writes that failed (retried; unarchived frames stay in the replay log).',
    );
    this.archiveDroppedBytes = counter(
      'ptyws_transcript_dropped_bytes_total',
      'Compressed transcript archive bytes dropped, oldest first, to keep sessions within PTYWS_TRANSCRIPT_SESSION_BYTES / PTYWS_TRANSCRIPT_AGENT_BYTES.',
    );
    this.archiveDroppedFrames = counter(
      'ptyws_transcript_dropped_frames_total',
      'Frames in the transcript archive chunks dropped for the byte quotas.',
    );
    this.archiveLagFrames = new Gauge({
      name: 'ptyws_transcript_archive_lag_frames',
      help: 'Frames in the replay log that the transcript archive does not hold yet, over all sessions of this agent.',
      registers,
    });
    this.archiveLagFrames.set(0);
    this.outputHeldSessions = new Gauge({
      name: 'ptyws_output_held_sessions',
      help: 'Sessions whose PTY is not being read now, by reason: readers (most readers behind: output waits for them), mirror or archive (far behind the stream), log (the frame log unreachable and PTYWS_LOG_OUTAGE_BUFFER_BYTES waiting for it).',
      labelNames: ['reason'],
      registers,
    });
    for (const reason of OUTPUT_HOLD_REASONS) this.outputHeldSessions.set({ reason }, 0);
    this.frameLogWaitingBytes = new Gauge({
      name: 'ptyws_frame_log_waiting_bytes',
      help: 'Output sequenced but not yet confirmed by the frame log, over all sessions of this agent (grows while the log is unreachable).',
      registers,
    });
    this.frameLogWaitingBytes.set(0);
    this.readPathSessions = new Gauge({
      name: 'ptyws_pty_read_path',
      help: "Sessions by who reads their pty now: event_loop (the agent), stream_relay (the relay process, while a session streams to one reader) or node_pty (node-pty's reader, when the pty spawner cannot run).",
      labelNames: ['path'] as const,
      registers,
    });
    for (const path of PTY_READ_PATHS) this.readPathSessions.set({ path }, 0);
    this.helperFailures = new Counter({
      name: 'ptyws_helper_failures_total',
      help: 'Helpers that failed or cannot run, the agent going on without them: stream_relay (a relay could not start or was killed), pty_spawner (node-pty forks every session instead), mirror_worker (keyframes parsed on the event loop instead).',
      labelNames: ['where'] as const,
      registers,
    });
    for (const where of HELPER_FAILURE_SITES) this.helperFailures.inc({ where }, 0);
    this.frameLogCuts = counter(
      'ptyws_frame_log_cuts_total',
      'Sessions ended with reason error because their frame log could not be written for PTYWS_LOG_OUTAGE_GIVE_UP_S.',
    );
  }

  trackSessions(source: () => Iterable<SessionSample>): Untrack {
    this.sessionSources.add(source);
    return () => this.sessionSources.delete(source);
  }

  keyframe(trigger: KeyframeTrigger, bytes: number, seconds: number): void {
    this.keyframes.inc({ trigger });
    this.keyframeBytes.inc({ trigger }, bytes);
    this.keyframeSeconds.observe({ trigger }, seconds);
  }

  mirrorParseErrors(kind: MirrorParseErrorKind, count: number): void {
    if (count > 0) this.mirrorParseErrorCounts.inc({ kind }, count);
  }

  outputHeld(reason: OutputHoldReason, delta: 1 | -1): void {
    this.outputHeldSessions.inc({ reason }, delta);
  }

  frameLogWaiting(delta: number): void {
    if (delta !== 0) this.frameLogWaitingBytes.inc(delta);
  }

  ptyReadPath(path: PtyReadPath, delta: 1 | -1): void {
    this.readPathSessions.inc({ path }, delta);
  }

  helperFailure(where: HelperFailureSite): void {
    this.helperFailures.inc({ where });
  }

  frameLogCut(): void {
    this.frameLogCuts.inc();
  }

  archiveChunkWritten(frames: number, bytes: number): void {
    if (frames <= 0) return;
    this.archiveChunks.inc();
    this.archiveBytes.inc(bytes);
  }

  archiveWriteFailed(): void {
    this.archiveFailures.inc();
  }

  archiveLag(delta: number): void {
    if (delta !== 0) this.archiveLagFrames.inc(delta);
  }

  archiveDropped(frames: number, bytes: number): void {
    this.archiveDroppedFrames.inc(frames);
    this.archiveDroppedBytes.inc(bytes);
  }
}
