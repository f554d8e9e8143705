import type { ClosedReason, SessionBackend, SessionClass, TerminalSize } from '@pty-ws/protocol';

/** One-way lifecycle: starting → running → closed. */
export type SessionState = 'starting' | 'running' | 'closed';

/** How a session's A2A tasks run: `/bin/sh -c` beside the PTY, or typed into its interactive shell. */
export type TaskExecutorKind = 'process' | 'live_shell';

/** What a session was created with; everything the owner needs to (re)start its process. */
export interface SessionSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  size: TerminalSize;
  backend: SessionBackend;
  sessionClass: SessionClass;
  /** Absent means `process` (records written before the field existed). */
  taskExecutor?: TaskExecutorKind;
}

export interface SessionRecord {
  sessionId: string;
  instanceId: string;
  /** The agent that owns the PTY and sequences the frame log. */
  agentId: string;
  spec: SessionSpec;
  state: SessionState;
  createdAt: number;
  closedAt?: number;
  exitCode?: number | null;
  closedReason?: ClosedReason;
  pid?: number;
  /** The size the session started with (`spec.size` follows resizes); transcripts start from it. */
  initialSize?: TerminalSize;
}

/** Where sessions are known: the upgrade's 404 and the REST listing come from here. */
export interface SessionRegistry {
  put(record: SessionRecord): Promise<void>;
  get(sessionId: string): Promise<SessionRecord | undefined>;
  list(filter?: { instanceId?: string; state?: SessionState }): Promise<SessionRecord[]>;
  /** Atomically applies a partial update; returns the updated record or undefined if unknown. */
  update(sessionId: string, patch: Partial<Omit<SessionRecord, 'sessionId'>>): Promise<SessionRecord | undefined>;
  delete(sessionId: string): Promise<void>;
}
