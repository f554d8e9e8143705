/** The recorder interfaces of the metrics registry (metrics.ts), by the part of the system that calls them. */
import type {
  KeyframeTrigger,
  MirrorParseErrorKind,
  OutputHoldReason,
  PtyReadPath,
  HelperFailureSite,
  RateLimit,
  SessionState,
  WireFormat,
  FrameKind,
} from './labels';

/** What `ptyws_connections` needs to know of a live connection (the edge's `Conn` fits). */
export interface ConnectionSample {
  readonly role?: string | undefined;
  readonly binary: boolean;
}

/** What `ptyws_sessions` needs to know of a session on its owner agent. */
export interface SessionSample {
  readonly state: SessionState;
  readonly backend: string;
}

/** What an HTTP server needs to answer `GET /metrics`. */
export interface MetricsExposition {
  text(): Promise<string>;
  readonly contentType: string;
}

/** Removes a source registered with `trackConnections` / `trackSessions`. */
export type Untrack = () => void;

/** The recorders the edge calls (HTTP/WebSocket front). */
export interface EdgeMetrics {
  /** `ptyws_connections{role,subprotocol}` is computed from the sources at scrape time. */
  trackConnections(source: () => Iterable<ConnectionSample>): Untrack;
  connectionOpened(binary: boolean): void;
  /** One fan-out publish of one frame in one format; `sockets` = subscribers it reached. */
  frameOut(kind: FrameKind, bytes: number, sockets: number): void;
  frameIn(format: WireFormat, bytes: number): void;
  replayRequested(): void;
  replayFramesServed(frames: number): void;
  replayOutOfRange(): void;
  hotWindowMiss(): void;
  lagSkip(): void;
  connectionReaped(): void;
  authFailure(reason: string): void;
  rateLimited(limit: RateLimit): void;
  /** Input frame in → first Output frame out on the same session, measured at the edge. */
  echoLatency(seconds: number): void;
}

/** The recorders the pty-agent calls (session owner). */
export interface AgentMetrics extends TranscriptArchiveMetrics {
  /** `ptyws_sessions{state,backend}` is computed from the sources at scrape time. */
  trackSessions(source: () => Iterable<SessionSample>): Untrack;
  keyframe(trigger: KeyframeTrigger, bytes: number, seconds: number): void;
  /** `count` parse errors of a session's headless terminal (it prints none of them). */
  mirrorParseErrors(kind: MirrorParseErrorKind, count: number): void;
  /** A session's PTY stopped (+1) or resumed (-1) being read, for `reason`. */
  outputHeld(reason: OutputHoldReason, delta: 1 | -1): void;
  /** Output sequenced but not yet in the frame log changed by `delta` bytes (summed over sessions). */
  frameLogWaiting(delta: number): void;
  /** A session's pty started (+1) or stopped (-1) being read by `path`. */
  ptyReadPath(path: PtyReadPath, delta: 1 | -1): void;
  /** A helper failed, or cannot run here, and the agent goes on without it (the paths in labels.ts). */
  helperFailure(where: HelperFailureSite): void;
  /** A session was ended because its frame log could not be written (PTYWS_LOG_OUTAGE_GIVE_UP_S). */
  frameLogCut(): void;
}

/** Recorders of the transcript archive (agent): what was written, what failed, what waits. */
export interface TranscriptArchiveMetrics {
  /** One chunk appended: its frames and their payload bytes (before compression). */
  archiveChunkWritten(frames: number, bytes: number): void;
  /** A chunk write failed (retried; the frames stay in the replay log meanwhile). */
  archiveWriteFailed(): void;
  /** Frames logged but not archived yet changed by `delta` (summed over sessions). */
  archiveLag(delta: number): void;
  /** The oldest chunks of an archive over its byte quota were dropped: their frames and compressed bytes. */
  archiveDropped(frames: number, bytes: number): void;
}

/** Recorders of the audit trail (edge): events recorded, and what its sinks could not write. */
export interface AuditMetrics {
  auditRecorded(): void;
  /** Events dropped because a sink's queue was full. */
  auditDropped(events: number): void;
  /** A batch write failed (it is retried). */
  auditWriteFailed(): void;
}

/** Recorders of the cluster adapters (NATS, Postgres). */
export interface ClusterMetrics {
  natsConsumerLag(messages: number): void;
  pgQuery(operation: string, seconds: number): void;
}

export interface MetricsOptions {
  /** process_* and nodejs_* (event-loop lag, GC, heap, handles); default true. */
  defaultMetrics?: boolean;
  /** Labels put on every series (e.g. `{ service: 'edge' }`); never per-session values. */
  labels?: Record<string, string>;
}
