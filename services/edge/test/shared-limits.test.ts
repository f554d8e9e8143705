import { ManualClock } from '@pty-ws/testkit';
import { ConnectionAdmission } from '../src/limits/connection-admission';
import {
  FORGET_EDGE_MS,
  REPORT_CHANGES_MS,
  REPORT_FULL_MS,
  SharedLimits,
  type CountedConnection,
  type LimitsExchange,
  type LimitsReport,
} from '../src/limits/shared-limits';

/** A synchronous in-memory stand-in for the NATS subject: every edge hears every report. */
function bus(): LimitsExchange & { sent: LimitsReport[] } {
  const listeners = new Set<(r: LimitsReport) => void>();
  const sent: LimitsReport[] = [];
  return {
    sent,
    publish: (r) => {
      sent.push(r);
      for (const l of listeners) l(JSON.parse(JSON.stringify(r)) as LimitsReport);
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

const conn = (principal: string, instance = 'i'): CountedConnection => ({
  principal: { id: principal },
  instanceId: instance,
});
const tick = () => new Promise((r) => setImmediate(r));

interface Edge {
  admission: ConnectionAdmission;
  shared: SharedLimits;
  conns: CountedConnection[];
}

function edge(
  id: string,
  exchange: LimitsExchange,
  limits: Partial<ConstructorParameters<typeof ConnectionAdmission>[0]>,
  clock = new ManualClock(),
): Edge {
  const conns: CountedConnection[] = [];
  const admission = new ConnectionAdmission(
    {
      connRatePerPrincipal: 1000,
      connBurstPerPrincipal: 1000,
      connRatePerInstance: 1000,
      connBurstPerInstance: 1000,
      apiRatePerPrincipal: 1000,
      apiBurstPerPrincipal: 1000,
      maxSockets: 1000,
      ...limits,
    },
    () => conns.length,
    clock,
  );
  const shared = new SharedLimits({
    edgeId: id,
    exchange,
    local: () => conns,
    onRemoteAdmissions: (p, i, r) => admission.chargeRemote(p, i, r),
    clock,
  });
  admission.countConnections(() => conns, shared);
  return { admission, shared, conns };
}

describe('SharedLimits', () => {
  const edges: Edge[] = [];
  afterEach(() => edges.splice(0).forEach((e) => e.shared.dispose()));

  it("charges one edge's admissions to the other's rate buckets on the next tick", async () => {
    const x = bus();
    const a = edge('a', x, { connRatePerPrincipal: 0.001, connBurstPerPrincipal: 2 });
    const b = edge('b', x, { connRatePerPrincipal: 0.001, connBurstPerPrincipal: 2 });
    edges.push(a, b);
    expect(a.admission.admit('p', 'i')).toBeUndefined();
    expect(a.admission.admit('p', 'i')).toBeUndefined();
    // Before the report: b still has its own burst.
    await tick();
    const refused = b.admission.admit('p', 'i');
    expect(refused?.limit).toBe('connections_principal');
    expect(x.sent.some((r) => r.edge === 'a' && r.admitted.principal['p'] === 2)).toBe(true);
  });

  it("charges one edge's control-plane requests to the other's request bucket, not its attach bucket", async () => {
    const x = bus();
    const limits = {
      apiRatePerPrincipal: 0.001,
      apiBurstPerPrincipal: 2,
      connRatePerPrincipal: 0.001,
      connBurstPerPrincipal: 1,
    };
    const a = edge('a', x, limits);
    const b = edge('b', x, limits);
    edges.push(a, b);
    expect(a.admission.admitRequest('p', 'i')).toBeUndefined();
    expect(a.admission.admitRequest('p', 'i')).toBeUndefined();
    await tick();
    expect(b.admission.admitRequest('p', 'i')?.limit).toBe('requests_principal');
    expect(x.sent.some((r) => r.edge === 'a' && r.admitted.requests?.['p'] === 2)).toBe(true);
    // The attach allowance is untouched on both edges.
    expect(b.admission.admit('p', 'i')).toBeUndefined();
  });

  it("adds the other edges' open connections to the caps, and forgets what they closed", async () => {
    const x = bus();
    const a = edge('a', x, { maxConnsPerPrincipal: 2, maxConnsPerInstance: 100 });
    const b = edge('b', x, { maxConnsPerPrincipal: 2, maxConnsPerInstance: 100 });
    edges.push(a, b);
    a.conns.push(conn('p'), conn('p'));
    // A full report (the periodic one) carries every open count.
    a.shared.report(true);
    expect(b.shared.remoteOpen('principal', 'p')).toBe(2);
    expect(b.admission.admit('p', 'i')?.limit).toBe('open_connections_principal');
    expect(b.admission.admit('q', 'i')).toBeUndefined();
    a.conns.pop();
    a.shared.report(false);
    expect(b.shared.remoteOpen('principal', 'p')).toBe(1);
    expect(b.admission.admit('p', 'i')).toBeUndefined();
    // Only the changed key travelled.
    expect(x.sent[x.sent.length - 1]!.open.principal).toEqual({ p: 1 });
  });

  it('reports changes every 250 ms and everything every 5 s; a silent edge is forgotten after 15 s', () => {
    const x = bus();
    // Two clocks: a's stops when a dies without a word (a killed process sends nothing).
    const clockA = new ManualClock();
    const clockB = new ManualClock();
    const a = edge('a', x, { maxConnsPerPrincipal: 1 }, clockA);
    const b = edge('b', x, { maxConnsPerPrincipal: 1 }, clockB);
    edges.push(a, b);
    a.conns.push(conn('p'));
    clockA.advance(REPORT_CHANGES_MS - 1);
    expect(b.shared.remoteOpen('principal', 'p')).toBe(0);
    clockA.advance(1);
    expect(b.shared.remoteOpen('principal', 'p')).toBe(1);
    const fullReports = () => x.sent.filter((r) => r.edge === 'a' && r.full).length;
    expect(fullReports()).toBe(1); // the one at start
    clockA.advance(REPORT_FULL_MS);
    expect(fullReports()).toBe(2);
    clockB.advance(FORGET_EDGE_MS - REPORT_FULL_MS);
    expect(b.shared.remoteOpen('principal', 'p')).toBe(1);
    expect(b.admission.admit('p', 'i')?.limit).toBe('open_connections_principal');
    clockB.advance(2 * REPORT_FULL_MS);
    expect(b.shared.remoteOpen('principal', 'p')).toBe(0);
    expect(b.admission.admit('p', 'i')).toBeUndefined();
  });

  it('a stopping edge tells the others it holds nothing any more', () => {
    const x = bus();
    const a = edge('a', x, { maxConnsPerPrincipal: 1 });
    const b = edge('b', x, { maxConnsPerPrincipal: 1 });
    edges.push(b);
    a.conns.push(conn('p'));
    a.shared.report(true);
    expect(b.shared.remoteOpen('principal', 'p')).toBe(1);
    a.shared.dispose();
    expect(b.shared.remoteOpen('principal', 'p')).toBe(0);
  });

  it('an edge ignores its own reports', () => {
    const x = bus();
    const a = edge('a', x, { maxConnsPerPrincipal: 1 });
    edges.push(a);
    a.conns.push(conn('p'));
    a.shared.report(true);
    expect(a.shared.remoteOpen('principal', 'p')).toBe(0);
  });
});
