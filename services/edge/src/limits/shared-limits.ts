import { systemClock, type Clock, type ClockTimer, type Disposable } from '@pty-ws/ports';

/**
 * Connection limits counted across every edge of a deployment (cluster mode), cheaply: no lookup
 * per connection. Each edge reports what it did and holds what the others reported:
 *  - admissions since its last report (published on the next tick, so a burst spread over edges
 *    drains every edge's rate buckets within milliseconds);
 *  - its open attach connections per principal and per instance: changed counts four times a
 *    second, all of them every 5 s (which also says the edge is alive).
 * A stopping edge reports zero; one silent for 15 s is forgotten (its connections died with it).
 */

/** One edge's report; counts are absolute for `open`, increments for `admitted`. */
export interface LimitsReport {
  edge: string;
  /** `requests`: control-plane requests per principal (their own bucket); absent from older edges. */
  admitted: { principal: Record<string, number>; instance: Record<string, number>; requests?: Record<string, number> };
  open: { principal: Record<string, number>; instance: Record<string, number> };
  /** `open` holds every key this edge has (others are 0), not only changed ones. */
  full: boolean;
}

/** How reports travel between edges (cluster: a NATS subject). */
export interface LimitsExchange {
  publish(report: LimitsReport): void;
  /** Reports of every edge, this one's included (they are skipped). */
  subscribe(onReport: (report: LimitsReport) => void): () => void;
}

/** What a connection contributes to the counts (the edge's `Conn` fits). */
export interface CountedConnection {
  readonly principal: { readonly id: string };
  readonly instanceId: string;
}

interface RemoteEdge {
  principal: Map<string, number>;
  instance: Map<string, number>;
  seenAt: number;
}

export const REPORT_CHANGES_MS = 250;
export const REPORT_FULL_MS = 5000;
export const FORGET_EDGE_MS = 15_000;

type Counts = { principal: Map<string, number>; instance: Map<string, number> };

export interface SharedLimitsOptions {
  edgeId: string;
  exchange: LimitsExchange;
  /** This edge's open connections, read when reporting. */
  local: () => Iterable<CountedConnection>;
  /** Other edges' admissions: charge them to this edge's rate buckets. */
  onRemoteAdmissions: (
    principal: ReadonlyMap<string, number>,
    instance: ReadonlyMap<string, number>,
    requests: ReadonlyMap<string, number>,
  ) => void;
  clock?: Clock;
}

export class SharedLimits implements Disposable {
  private readonly remotes = new Map<string, RemoteEdge>();
  private admitted: Counts = { principal: new Map(), instance: new Map() };
  private requests = new Map<string, number>();
  private lastSent: Counts = { principal: new Map(), instance: new Map() };
  private admissionFlush: NodeJS.Immediate | undefined;
  private readonly timers: ClockTimer[];
  private readonly unsubscribe: () => void;
  private lastFullAt = 0;
  private readonly edgeId: string;
  private readonly exchange: LimitsExchange;
  private readonly local: SharedLimitsOptions['local'];
  private readonly onRemoteAdmissions: SharedLimitsOptions['onRemoteAdmissions'];
  private readonly clock: Clock;

  constructor(opts: SharedLimitsOptions) {
    ({ edgeId: this.edgeId, exchange: this.exchange, local: this.local } = opts);
    this.onRemoteAdmissions = opts.onRemoteAdmissions;
    const clock = (this.clock = opts.clock ?? systemClock);
    this.unsubscribe = this.exchange.subscribe((r) => this.receive(r));
    this.timers = [
      clock.setInterval(() => this.report(clock.monotonic() - this.lastFullAt >= REPORT_FULL_MS), REPORT_CHANGES_MS),
      clock.setInterval(() => this.forgetSilentEdges(), REPORT_FULL_MS),
    ].map((t) => t.unref());
    this.report(true);
  }

  /** Open connections of `principalId` / `instanceId` on the other edges, as last reported. */
  remoteOpen(kind: 'principal' | 'instance', key: string): number {
    let n = 0;
    for (const edge of this.remotes.values()) n += edge[kind].get(key) ?? 0;
    return n;
  }

  /** This edge admitted a connection: told to the others on the next tick. */
  recordAdmission(principalId: string, instanceId: string): void {
    bump(this.admitted.principal, principalId, 1);
    bump(this.admitted.instance, instanceId, 1);
    this.flushSoon();
  }

  /** This edge admitted a control-plane request: told to the others on the next tick. */
  recordRequest(principalId: string, instanceId: string): void {
    bump(this.requests, principalId, 1);
    bump(this.admitted.instance, instanceId, 1);
    this.flushSoon();
  }

  private flushSoon(): void {
    this.admissionFlush ??= setImmediate(() => {
      this.admissionFlush = undefined;
      this.report(false);
    });
  }

  /** Stops reporting; the others are told this edge holds nothing any more (no 15 s wait). */
  dispose(): void {
    for (const t of this.timers) t.cancel();
    if (this.admissionFlush) clearImmediate(this.admissionFlush);
    this.unsubscribe();
    const none = { principal: {}, instance: {} };
    this.exchange.publish({ edge: this.edgeId, admitted: none, open: none, full: true });
  }

  /** Sends this edge's report now: everything (`full`) or what changed. The timers call it. */
  report(full: boolean): void {
    const now = countOpen(this.local());
    const open = {
      principal: full ? Object.fromEntries(now.principal) : changed(this.lastSent.principal, now.principal),
      instance: full ? Object.fromEntries(now.instance) : changed(this.lastSent.instance, now.instance),
    };
    const admitted = {
      principal: Object.fromEntries(this.admitted.principal),
      instance: Object.fromEntries(this.admitted.instance),
      requests: Object.fromEntries(this.requests),
    };
    this.admitted = { principal: new Map(), instance: new Map() };
    this.requests = new Map();
    this.lastSent = now;
    if (full) this.lastFullAt = this.clock.monotonic();
    const empty = (o: Record<string, number>) => Object.keys(o).length === 0;
    const none = empty(open.principal) && empty(open.instance) && empty(admitted.principal);
    if (!full && none && empty(admitted.instance)) return;
    this.exchange.publish({ edge: this.edgeId, admitted, open, full });
  }

  private receive(r: LimitsReport): void {
    if (r.edge === this.edgeId) return;
    let edge = this.remotes.get(r.edge);
    if (!edge || r.full) {
      edge = { principal: new Map(), instance: new Map(), seenAt: 0 };
      this.remotes.set(r.edge, edge);
    }
    edge.seenAt = this.clock.monotonic();
    apply(edge.principal, r.open.principal);
    apply(edge.instance, r.open.instance);
    const ap = new Map(Object.entries(r.admitted.principal));
    const ai = new Map(Object.entries(r.admitted.instance));
    const ar = new Map(Object.entries(r.admitted.requests ?? {}));
    if (ap.size > 0 || ai.size > 0 || ar.size > 0) this.onRemoteAdmissions(ap, ai, ar);
  }

  private forgetSilentEdges(): void {
    const cutoff = this.clock.monotonic() - FORGET_EDGE_MS;
    for (const [id, edge] of this.remotes) if (edge.seenAt < cutoff) this.remotes.delete(id);
  }
}

function bump(m: Map<string, number>, key: string, n: number): void {
  m.set(key, (m.get(key) ?? 0) + n);
}

function countOpen(conns: Iterable<CountedConnection>): Counts {
  const c: Counts = { principal: new Map(), instance: new Map() };
  for (const conn of conns) {
    bump(c.principal, conn.principal.id, 1);
    bump(c.instance, conn.instanceId, 1);
  }
  return c;
}

/** Keys whose count differs from what was last sent, with their new count (0: gone). */
function changed(before: Map<string, number>, now: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, n] of now) if (before.get(k) !== n) out[k] = n;
  for (const k of before.keys()) if (!now.has(k)) out[k] = 0;
  return out;
}

function apply(m: Map<string, number>, counts: Record<string, number>): void {
  for (const [k, n] of Object.entries(counts)) {
    if (typeof n !== 'number' || n <= 0) m.delete(k);
    else m.set(k, n);
  }
}
