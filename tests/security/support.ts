/** Helpers shared by the security suite; each works in embedded and cluster mode. */
import { readFileSync } from 'node:fs';
import { http, type ClusterHandle, type TestContext } from '@pty-ws/testkit';

/** Every edge's http base: one in embedded mode, each edge process in cluster mode. */
export function edgeHttpUrls(ctx: TestContext): string[] {
  if (ctx.server.mode === 'cluster') return (ctx.server.node as ClusterHandle).edges.map((e) => e.httpUrl);
  return [ctx.server.httpUrl];
}

/**
 * `ptyws_rate_limited_total{limit}` summed over every edge (a refusal is counted where it
 * happened; cluster edges add an `edge` label). NaN when no edge exposes the series.
 */
export async function rateLimitedTotal(ctx: TestContext, limit: string): Promise<number> {
  let total = NaN;
  for (const base of edgeHttpUrls(ctx)) {
    const res = await http({ ...ctx.server, httpUrl: base }, 'GET', '/metrics', { token: null });
    const re = new RegExp(`^ptyws_rate_limited_total\\{[^}]*limit="${limit}"[^}]*\\} (\\d+)`, 'm');
    const m = re.exec(res.text);
    if (m) total = (Number.isNaN(total) ? 0 : total) + Number(m[1]);
  }
  return total;
}

/** A counter without labels of its own (`ptyws_audit_events_total`), summed over every edge. */
export async function counterTotal(ctx: TestContext, name: string): Promise<number> {
  let total = 0;
  for (const base of edgeHttpUrls(ctx)) {
    const res = await http({ ...ctx.server, httpUrl: base }, 'GET', '/metrics', { token: null });
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)`, 'm').exec(res.text);
    if (m) total += Number(m[1]);
  }
  return total;
}

/** An attach URL on one particular edge (limits per edge need all connections on the same one). */
export function attachUrlOnEdge(ctx: TestContext, sessionId: string, edge = 0): string {
  const base = ctx.server.mode === 'cluster' ? (ctx.server.node as ClusterHandle).edgeWsUrls[edge]! : ctx.server.wsUrl;
  return `${base}/agents/${encodeURIComponent(ctx.server.instanceId)}/sessions/${encodeURIComponent(sessionId)}/attach`;
}

/** A process's resident set in MB, from /proc/<pid>/status. */
export function rssMb(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
}
