import { systemClock, type AuditEvent, type AuditLog, type Clock, type Disposable } from '@pty-ws/ports';
import type { PtyRole } from '@pty-ws/protocol';
import type { AuditMetrics } from '@pty-ws/telemetry';
import type { Principal } from '../auth';
import type { Conn } from '../ws/connection';
import { InputAttribution } from './input-attribution';

/** Audit event types of control-plane calls (not of attached connections). */
export type ControlPlaneAction = Extract<
  AuditEvent['type'],
  | 'token_create'
  | 'token_revoke'
  | 'session_create'
  | 'session_kill'
  | 'task_send'
  | 'task_cancel'
  | 'push_config_set'
  | 'push_config_delete'
>;

/** What the edge knows about a connection that the trail records on every event. */
type ConnFacts = Pick<Conn, 'clientId' | 'instanceId' | 'sessionId' | 'principal' | 'remoteAddress' | 'binary'>;

/**
 * The edge's audit recorder: turns what the binding did into AuditEvents. Every method only
 * queues (AuditLog.record) — none waits, none throws into the caller.
 */
export interface EdgeAuditOptions {
  log: AuditLog;
  edgeId: string;
  instanceId: string;
  metrics?: Pick<AuditMetrics, 'auditRecorded'> | undefined;
  clock?: Clock;
}

export class EdgeAudit implements Disposable {
  private readonly inputs: InputAttribution<ConnFacts>;
  /** Connections with an attach on record: only they get a detach. */
  private readonly attached = new WeakSet<ConnFacts>();

  private readonly log: AuditLog;
  private readonly edgeId: string;
  private readonly instanceId: string;
  private readonly metrics: Pick<AuditMetrics, 'auditRecorded'> | undefined;
  private readonly clock: Clock;

  constructor(opts: EdgeAuditOptions) {
    ({ log: this.log, edgeId: this.edgeId, instanceId: this.instanceId, metrics: this.metrics } = opts);
    this.clock = opts.clock ?? systemClock;
    this.inputs = new InputAttribution({
      report: (conn, c) =>
        this.connEvent(conn, 'input', false, { bytes: c.bytes, frames: c.frames, from: iso(c.from), to: iso(c.to) }),
      clock: this.clock,
    });
  }

  /**
   * A connection joined the session and holds a role. An observer attach is a disclosure: the
   * session's output, secrets included, now reaches a principal that cannot steer it.
   */
  attach(conn: ConnFacts, grant: { role: PtyRole; downgraded: boolean; reason?: string }, requested: PtyRole): void {
    this.attached.add(conn);
    this.connEvent(conn, 'attach', grant.role === 'observer', {
      role: grant.role,
      requested_role: requested,
      ...(grant.downgraded ? { downgraded: true, reason: grant.reason ?? null } : {}),
      scopes: [...conn.principal.scopes].sort(),
      source_address: conn.remoteAddress,
      subprotocol: conn.binary ? 'pty-ws.v1.binary' : 'pty-ws.v1',
      principal_kind: conn.principal.kind ?? 'token',
    });
  }

  detach(conn: ConnFacts, role: PtyRole | undefined, closeCode: number): void {
    this.inputs.flush(conn);
    if (!this.attached.has(conn)) return;
    this.attached.delete(conn);
    this.connEvent(conn, 'detach', false, { role: role ?? null, close_code: closeCode });
  }

  roleChange(conn: ConnFacts, from: PtyRole | undefined, to: PtyRole, reason: string): void {
    this.connEvent(conn, 'role_change', to === 'observer' && from !== 'observer', {
      from: from ?? null,
      to,
      reason,
    });
  }

  input(conn: ConnFacts, bytes: number): void {
    this.inputs.add(conn, bytes);
  }

  resize(conn: ConnFacts, cols: number, rows: number): void {
    this.connEvent(conn, 'resize', false, { cols, rows });
  }

  /**
   * Control-plane actions (REST, gRPC admin, A2A bindings): token and session lifecycle, task
   * sends and cancels, push-config changes, by whom (detail: `via`, `source_address`).
   */
  admin(
    principal: Pick<Principal, 'id'>,
    type: ControlPlaneAction,
    detail: Record<string, unknown>,
    sessionId?: string,
  ): void {
    this.metrics?.auditRecorded();
    this.log.record({
      at: this.clock.now(),
      type,
      instanceId: this.instanceId,
      principal: principal.id,
      edgeId: this.edgeId,
      disclosure: false,
      detail,
      ...(sessionId !== undefined ? { sessionId } : {}),
    });
  }

  /**
   * A task sent or canceled over pty-ws/v1 (the WebSocket binding runs tasks through
   * SessionControl itself, not through the A2A core), recorded like the other bindings' with
   * `via: ws`, plus the connection's client id.
   */
  wsTask(conn: ConnFacts, type: 'task_send' | 'task_cancel', detail: Record<string, unknown>): void {
    this.connEvent(conn, type, false, { ...detail, via: 'ws', source_address: conn.remoteAddress });
  }

  /** A transcript was read (REST): a disclosure of the session's output, like an observer attach. */
  transcriptRead(principal: Pick<Principal, 'id'>, sessionId: string, detail: Record<string, unknown>): void {
    this.metrics?.auditRecorded();
    this.log.record({
      at: this.clock.now(),
      type: 'transcript_read',
      instanceId: this.instanceId,
      principal: principal.id,
      sessionId,
      edgeId: this.edgeId,
      disclosure: true,
      detail,
    });
  }

  /**
   * The session's owner gave its frame log up and ended it (an outage past its bound): this
   * connection was ended with an Error and `Closed` reason `error`.
   */
  logCut(conn: ConnFacts, detail: { last_sequence: number; via: 'notice' | 'log' | 'registry' }): void {
    this.connEvent(conn, 'session_log_cut', false, detail);
  }

  /** Reports pending input attribution; the log itself belongs to whoever opened it. */
  dispose(): void {
    this.inputs.dispose();
  }

  private connEvent(
    conn: ConnFacts,
    type: AuditEvent['type'],
    disclosure: boolean,
    detail: Record<string, unknown>,
  ): void {
    this.metrics?.auditRecorded();
    this.log.record({
      at: this.clock.now(),
      type,
      instanceId: conn.instanceId,
      principal: conn.principal.id,
      sessionId: conn.sessionId,
      clientId: conn.clientId,
      edgeId: this.edgeId,
      disclosure,
      detail,
    });
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();
