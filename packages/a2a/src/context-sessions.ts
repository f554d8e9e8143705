import { newId, type TaskState } from '@pty-ws/protocol';
import type {
  ContextSessionRecord,
  ContextSessionStore,
  CreateSessionRequest,
  SessionControl,
  SessionRecord,
  SessionRegistry,
  TaskStore,
} from '@pty-ws/ports';
import { A2aError } from './a2a-error';
import type { CallContext } from './a2a-operations';

export interface ContextSessionsOptions {
  store: ContextSessionStore;
  registry: SessionRegistry;
  /** Whether a session still runs a task (it is not closed while one does). */
  tasks: TaskStore;
  control: Pick<SessionControl, 'createSession' | 'killSession'>;
  /** PTYWS_CONTEXT_SESSION_IDLE_S in ms: a context session unused this long is closed. */
  idleMs: number;
  /** How long a message waits for the session another message (or edge) is creating; default 30 s. */
  startWaitMs?: number;
  now?: () => number;
  logger?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** States of a task that still runs: its session stays open whatever the idle time. */
const OPEN_STATES: readonly TaskState[] = ['SUBMITTED', 'WORKING', 'INPUT_REQUIRED', 'AUTH_REQUIRED'];
const SWEEP_BATCH = 100;
const POLL_MS = 50;

/**
 * Sessions for A2A clients that name none: the first message of a context (from a principal that
 * may create sessions) starts a session, bound to its `contextId` in the ContextSessionStore;
 * later messages of that context run there; the session is closed once the context has been
 * idle for `idleMs` and no task of the session runs. The store is shared by every edge, so
 * messages of one context reach one session whichever edge they land on, and of two first
 * messages only the one whose claim won creates it: the other waits for it to run.
 */
export class ContextSessions {
  /** First messages of one context on this edge share one lookup (no polling among themselves). */
  private readonly resolving = new Map<string, Promise<string>>();
  private readonly now: () => number;
  private readonly startWaitMs: number;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;

  constructor(private readonly opts: ContextSessionsOptions) {
    this.now = opts.now ?? Date.now;
    this.startWaitMs = opts.startWaitMs ?? 30_000;
  }

  /** The session the context's messages run in, created for it when it has none (or it closed). */
  sessionFor(ctx: CallContext, contextId: string): Promise<string> {
    const key = JSON.stringify([ctx.instanceId, contextId]);
    const pending = this.resolving.get(key);
    if (pending) return pending;
    const lookup = this.resolve(ctx, contextId).finally(() => this.resolving.delete(key));
    this.resolving.set(key, lookup);
    return lookup;
  }

  private async resolve(ctx: CallContext, contextId: string): Promise<string> {
    const { store, registry } = this.opts;
    const deadline = this.now() + this.startWaitMs;
    for (;;) {
      const held = await store.get(ctx.instanceId, contextId);
      if (!held) {
        const claim = await store.claim(this.binding(ctx, contextId));
        if (claim.claimed) return this.startSession(ctx, claim.record);
        continue; // another message bound it first: use its session
      }
      const session = await registry.get(held.sessionId);
      if (session && session.state !== 'closed') {
        if (await store.touch(ctx.instanceId, contextId, held.sessionId, this.now())) return held.sessionId;
        continue; // released meanwhile (closed as idle): bind the context anew
      }
      if (!session && this.now() < Math.min(deadline, held.createdAt + this.startWaitMs)) {
        await delay(POLL_MS); // the claim's winner is still starting the session
        continue;
      }
      // Its session ended (exited, killed, or never started): the context gets a new one.
      await store.release(held.instanceId, contextId, held.sessionId, held.lastUsedAt);
      if (this.now() >= deadline) {
        throw new A2aError(
          'Unavailable',
          `the session of context '${contextId}' did not start; send the message again`,
        );
      }
    }
  }

  private binding(ctx: CallContext, contextId: string): ContextSessionRecord {
    const at = this.now();
    return {
      instanceId: ctx.instanceId,
      contextId,
      sessionId: newId(),
      principalId: ctx.principal.id,
      createdAt: at,
      lastUsedAt: at,
    };
  }

  /** Starts the session the claim named; a session that cannot start gives the context up again. */
  private async startSession(ctx: CallContext, binding: ContextSessionRecord): Promise<string> {
    const req: CreateSessionRequest = {
      instanceId: ctx.instanceId,
      sessionId: binding.sessionId,
      // Typed into the session's shell: `cd` and `export` last, exit codes come from the shell,
      // and a command that reads the terminal asks for input (INPUT_REQUIRED).
      taskExecutor: 'live_shell',
    };
    let rec: SessionRecord;
    try {
      rec = await this.opts.control.createSession(req);
    } catch (err) {
      await this.opts.store
        .release(binding.instanceId, binding.contextId, binding.sessionId, binding.lastUsedAt)
        .catch(() => undefined);
      throw err;
    }
    ctx.audit?.({
      type: 'session_create',
      sessionId: rec.sessionId,
      detail: {
        context_id: binding.contextId,
        agent_id: rec.agentId,
        backend: rec.spec.backend,
        program: rec.spec.argv[0] ?? null,
      },
    });
    this.opts.logger?.info({ session_id: rec.sessionId, context_id: binding.contextId }, 'session created for context');
    return rec.sessionId;
  }

  /** Sweeps every half idle time (at most a minute apart) until disposed. */
  start(): void {
    if (this.timer) return;
    const every = Math.max(50, Math.min(this.opts.idleMs / 2, 60_000));
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep()
        .catch((err: Error) => {
          this.opts.logger?.warn({ err: err.message }, 'idle context sessions not swept');
          return 0;
        })
        .finally(() => (this.sweeping = undefined));
    }, every);
    this.timer.unref();
  }

  async dispose(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }

  /**
   * Closes the sessions of contexts idle for `idleMs` whose sessions run no task; returns how
   * many. A busy session counts as used now. Every edge sweeps: the release is a compare on the
   * last use, so one edge closes a session, and a message that came meanwhile keeps it.
   */
  async sweep(): Promise<number> {
    const { store, registry, control } = this.opts;
    let closed = 0;
    const now = this.now();
    for (const b of await store.idle(now - this.opts.idleMs, SWEEP_BATCH)) {
      const session = await registry.get(b.sessionId);
      if (!session && now < b.createdAt + this.startWaitMs) continue; // still starting
      if (session && session.state !== 'closed' && (await this.busy(b))) {
        await store.touch(b.instanceId, b.contextId, b.sessionId, now);
        continue;
      }
      if (!(await store.release(b.instanceId, b.contextId, b.sessionId, b.lastUsedAt))) continue;
      if (!session || session.state === 'closed') continue;
      await control.killSession(b.sessionId).then(
        () => {
          closed++;
          this.opts.logger?.info({ session_id: b.sessionId, context_id: b.contextId }, 'idle context session closed');
        },
        (err: Error) =>
          this.opts.logger?.warn({ session_id: b.sessionId, err: err.message }, 'idle session not closed'),
      );
    }
    return closed;
  }

  private async busy(b: ContextSessionRecord): Promise<boolean> {
    for (const state of OPEN_STATES) {
      const page = await this.opts.tasks.list({ instanceId: b.instanceId, sessionId: b.sessionId, state }, 1);
      if (page.tasks.length > 0) return true;
    }
    return false;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
