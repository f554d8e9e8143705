import type { SessionControl, SessionRecord, SessionRegistry, TokenRecord, TokenStore } from '@pty-ws/ports';
import { BindingError, SCOPES, newId, type Scope } from '@pty-ws/protocol';
import type { RateLimit } from '@pty-ws/telemetry';
import { generateToken, hashToken, isAdmin, type Principal } from '../auth';
import type { ControlPlaneAction, EdgeAudit } from '../audit/edge-audit';
import {
  checkInstanceBinding,
  checkMayCreateSessions,
  narrowMint,
  sessionInBinding,
  tokenInBinding,
} from './admin-binding';

/** An unknown (or another instance's) session or token: REST 404, gRPC NOT_FOUND. */
export class NotFoundError extends BindingError {
  constructor(message: string) {
    super('INVALID_REQUEST', message);
    this.name = 'NotFoundError';
  }
}

/** Who asks; `audit` adds what the binding records about the call (gRPC: `via`, `source_address`). */
export interface AdminCaller {
  principal: Principal;
  audit?: Record<string, unknown>;
}

/** A session to create, as the wire carried it (types already checked by the binding). */
export interface NewSession {
  argv?: string[];
  command?: string;
  cwd?: string;
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  backend?: string;
  sessionClass?: string;
  agentId?: string;
  taskExecutor?: string;
}

/** A token to mint, as the wire carried it. */
export interface NewToken {
  scopes: readonly string[];
  instanceId?: string;
  sessionId?: string;
  ttlSeconds?: number;
  label?: string;
}

export interface AdminDeps {
  /** The one instance this edge serves. */
  instanceId: string;
  control: SessionControl;
  registry: SessionRegistry;
  tokens: TokenStore;
  audit?: EdgeAudit;
  /** Closes live connections of a revoked token (here and, in cluster mode, on every edge). */
  onTokenRevoked: (tokenId: string) => void;
  /** A session cap refused a creation (`sessions_agent`, `sessions_instance`). */
  onRateLimited?: (limit: RateLimit) => void;
}

export const MAX_TTL_S = 10 * 365 * 86400;

/**
 * The admin operations behind both the REST admin API (`/api/v1/sessions`, `/api/v1/tokens`) and
 * gRPC `ptyws.admin.v1.AdminService`: one place for the checks (the `pty:admin` scope, this
 * instance only, field limits), the store calls and the audit trail. The bindings only translate
 * their wire format to these calls and the records back.
 */
export class AdminOperations {
  constructor(private readonly deps: AdminDeps) {}

  /** The `pty:admin` scope, for this instance (a token bound to another one is refused). */
  authorize(principal: Principal): void {
    if (!isAdmin(principal)) throw new BindingError('PERMISSION_DENIED', 'this endpoint needs the pty:admin scope');
    checkInstanceBinding(principal, this.deps.instanceId);
  }

  async createSession(req: NewSession, caller: AdminCaller): Promise<SessionRecord> {
    checkMayCreateSessions(caller.principal);
    const cols = range(req.cols, 'cols', 1, 100000);
    const rows = range(req.rows, 'rows', 1, 100000);
    if ((cols === undefined) !== (rows === undefined))
      throw new BindingError('INVALID_REQUEST', "give both 'cols' and 'rows' or neither");
    const command = limited(req.command, 'command', 65536);
    const cwd = limited(req.cwd, 'cwd', 4096);
    const agentId = limited(req.agentId, 'agent_id', 128);
    const backend = limited(req.backend, 'session_backend', 4096);
    const sessionClass = limited(req.sessionClass, 'session_class', 4096);
    const taskExecutor = limited(req.taskExecutor, 'task_executor', 4096);
    const rec = await this.countCapRefusal(
      this.deps.control.createSession({
        instanceId: this.deps.instanceId,
        ...(req.argv ? { argv: req.argv } : {}),
        ...(command !== undefined ? { command } : {}),
        ...(cwd !== undefined ? { cwd } : {}),
        ...(req.env ? { env: req.env } : {}),
        ...(cols !== undefined && rows !== undefined ? { size: { cols, rows } } : {}),
        // Validated by the owner (backends, classes, 'process' | 'live_shell').
        ...(backend !== undefined ? { backend: backend as never } : {}),
        ...(sessionClass !== undefined ? { sessionClass: sessionClass as never } : {}),
        ...(agentId !== undefined ? { agentId } : {}),
        ...(taskExecutor !== undefined ? { taskExecutor: taskExecutor as never } : {}),
      }),
    );
    this.record(
      caller,
      'session_create',
      { agent_id: rec.agentId, backend: rec.spec.backend, program: rec.spec.argv[0] ?? null },
      rec.sessionId,
    );
    return rec;
  }

  /** This instance's sessions the caller may see (a session-bound token: its own), oldest first. */
  async listSessions(caller: AdminCaller): Promise<SessionRecord[]> {
    const list = await this.deps.registry.list({ instanceId: this.deps.instanceId });
    return list
      .filter((s) => sessionInBinding(caller.principal, s.sessionId))
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  /** A session of this instance; with a caller, also one its binding covers (else: not found). */
  async getSession(id: string, caller?: AdminCaller): Promise<SessionRecord> {
    const rec = id ? await this.deps.registry.get(id) : undefined;
    if (!rec || rec.instanceId !== this.deps.instanceId || (caller && !sessionInBinding(caller.principal, id)))
      throw new NotFoundError(`session '${id}' not found`);
    return rec;
  }

  /** Kills the session; returns its record as it is now (closing or closed). */
  async killSession(id: string, caller: AdminCaller): Promise<SessionRecord> {
    const rec = await this.getSession(id, caller);
    await this.deps.control.killSession(rec.sessionId);
    this.record(caller, 'session_kill', {}, rec.sessionId);
    return (await this.deps.registry.get(rec.sessionId)) ?? rec;
  }

  /** Mints a token; the secret is returned once and only its hash is stored. */
  async createToken(req: NewToken, caller: AdminCaller): Promise<{ record: TokenRecord; secret: string }> {
    const { scopes } = req;
    if (scopes.length === 0 || scopes.some((s) => !SCOPES.includes(s as Scope)))
      throw fieldError('scopes', `a non-empty array of ${SCOPES.join(', ')}`);
    const instanceId = limited(req.instanceId, 'instance_id', 128) ?? this.deps.instanceId;
    if (instanceId !== this.deps.instanceId)
      throw new BindingError('INVALID_REQUEST', `instance '${instanceId}' is not served here`);
    const requestedSession = limited(req.sessionId, 'session_id', 128);
    const ttl = range(req.ttlSeconds, 'ttl_seconds', 1, MAX_TTL_S);
    const label = limited(req.label, 'label', 256);
    const now = Date.now();
    // Never broader than the minter: its scopes, its session, its lifetime at most.
    const { sessionId, expiresAt } = narrowMint(caller.principal, {
      scopes: scopes as Scope[],
      ...(requestedSession !== undefined ? { sessionId: requestedSession } : {}),
      ...(ttl !== undefined ? { expiresAt: now + ttl * 1000 } : {}),
    });
    if (sessionId !== undefined && !(await this.deps.registry.get(sessionId)))
      throw new BindingError('INVALID_REQUEST', `session '${sessionId}' not found`);
    const secret = generateToken();
    const record: TokenRecord = {
      tokenId: newId(),
      hash: hashToken(secret),
      scopes: [...new Set(scopes as Scope[])],
      instanceId,
      createdBy: caller.principal.id,
      createdAt: now,
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(label !== undefined ? { label } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
    await this.deps.tokens.insert(record);
    this.record(
      caller,
      'token_create',
      {
        token_id: record.tokenId,
        scopes: record.scopes,
        label: record.label ?? null,
        expires_at: record.expiresAt ?? null,
      },
      record.sessionId,
    );
    return { record, secret };
  }

  /** This instance's tokens the caller may see (a session-bound token: those of its session). */
  async listTokens(caller: AdminCaller): Promise<TokenRecord[]> {
    const list = await this.deps.tokens.list({ instanceId: this.deps.instanceId });
    return list.filter((t) => tokenInBinding(caller.principal, t));
  }

  /** Revokes a token of this instance and closes its connections; returns the revoked record. */
  async revokeToken(id: string, caller: AdminCaller): Promise<TokenRecord> {
    const known = id ? await this.deps.tokens.get(id) : undefined;
    if (
      !known ||
      known.instanceId !== this.deps.instanceId ||
      !tokenInBinding(caller.principal, known) ||
      !(await this.deps.tokens.revoke(id, Date.now()))
    )
      throw new NotFoundError(`token '${id}' not found`);
    this.deps.onTokenRevoked(id);
    this.record(caller, 'token_revoke', { token_id: id });
    return (await this.deps.tokens.get(id)) ?? known;
  }

  private record(
    caller: AdminCaller,
    action: ControlPlaneAction,
    detail: Record<string, unknown>,
    sessionId?: string,
  ): void {
    this.deps.audit?.admin(caller.principal, action, { ...detail, ...caller.audit }, sessionId);
  }

  /** Session caps refuse with RATE_LIMITED and `data.limit`; the edge counts them like its own limits. */
  private async countCapRefusal<T>(created: Promise<T>): Promise<T> {
    try {
      return await created;
    } catch (err) {
      if (err instanceof BindingError && err.code === 'RATE_LIMITED') {
        const limit = err.data?.['limit'];
        this.deps.onRateLimited?.(limit === 'sessions_agent' || limit === 'sessions_instance' ? limit : 'other');
      }
      throw err;
    }
  }
}

export function fieldError(field: string, expected: string): BindingError {
  return new BindingError('INVALID_REQUEST', `field '${field}' must be ${expected}`);
}

/** An optional string field: absent stays absent, longer than `max` is INVALID_REQUEST. */
export function limited(v: string | undefined, field: string, max: number): string | undefined {
  if (v === undefined) return undefined;
  if (v.length > max) throw fieldError(field, `a string of at most ${max} characters`);
  return v;
}

/** An optional integer field within `min..max`. */
function range(v: number | undefined, field: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < min || v > max) throw fieldError(field, `an integer in ${min}..${max}`);
  return v;
}
