/** The capacity run's JSON document and its table (stdout). */
import type { MachineInfo } from '../machine';
import type { AttachStormMetric } from './attach-storm';
import type { ChurnMetric } from './churn';
import type { IdleSessionsMetric } from './idle-sessions';
import type { IdleSocketsMetric } from './idle-sockets';
import type { CapacityPhase, CapacityProfile } from './profile';
import type { TypingLevel } from './typing';

export interface CapacityReport {
  schema: 'pty-ws-capacity/1';
  date: string;
  mode: 'single-node';
  profile: CapacityProfile;
  /** The phases this run ran (`--only`); the others have no figures. */
  phases: CapacityPhase[];
  machine: MachineInfo;
  /** Goals the figures are held against (a figure over its goal is flagged in the table). */
  goals: { per_socket_kb: number; per_session_kb: number };
  idle_sockets?: IdleSocketsMetric;
  idle_sessions?: IdleSessionsMetric;
  typing?: TypingLevel[];
  attach_storm?: AttachStormMetric;
  churn?: ChurnMetric;
  /** Phase name → why it has no figures. */
  errors: Record<string, string>;
  wall_ms: number;
}

export const GOALS = { per_socket_kb: 16, per_session_kb: 128 };

const mb = (kb: number): string => (kb / 1024).toFixed(0);
const over = (v: number, goal: number): string => (v > goal ? ` (goal <= ${goal})` : '');

export function renderCapacityTable(r: CapacityReport): string {
  const rows: Array<[string, string]> = [];
  for (const l of r.idle_sockets?.levels ?? [])
    rows.push([
      `idle observer sockets ${l.sockets}`,
      `${l.per_socket_kb} KB/socket${over(l.per_socket_kb, r.goals.per_socket_kb)}, RSS ${mb(l.rss_kb)} MB, CPU at rest ${l.cpu_at_rest_pct} %`,
    ]);
  for (const l of r.idle_sessions?.levels ?? [])
    rows.push([
      `idle sessions ${l.sessions}`,
      `${l.per_session_kb} KB/session${over(l.per_session_kb, r.goals.per_session_kb)}, RSS ${mb(l.rss_kb)} MB, heap+external ${mb(l.heap_kb)} MB`,
    ]);
  const asleep = r.idle_sessions?.asleep;
  if (asleep)
    rows.push([
      `idle sessions ${asleep.sessions}, mirrors asleep`,
      `heap ${asleep.heap_per_session_kb} KB/session${over(asleep.heap_per_session_kb, r.goals.per_session_kb)} after a full GC, RSS ${asleep.per_session_kb} KB/session (${mb(asleep.rss_kb)} MB)`,
    ]);
  for (const l of r.typing ?? [])
    rows.push([
      `typing at once ${l.sessions} (${l.rate_hz}/s each)`,
      `echo p50 ${l.p50_ms} ms, p99 ${l.p99_ms} ms, ${l.samples} echoes, ${l.timeouts} timeouts, server CPU ${l.server_cpu_pct} %`,
    ]);
  const s = r.attach_storm;
  if (s) {
    rows.push([
      `attach storm (${s.service.concurrency} in flight)`,
      `${s.service.per_s}/s, p99 ${s.service.p99_ms} ms, ${s.service.failures} failed`,
    ]);
    rows.push(['uWS upgrade floor', `${s.uws_floor.per_s}/s, p99 ${s.uws_floor.p99_ms} ms (service ${s.ratio}x)`]);
  }
  const c = r.churn;
  if (c)
    rows.push([
      `churn ${c.sessions} sessions`,
      `RSS ${mb(c.rss_before_kb)} -> peak ${mb(c.rss_peak_kb)} -> ${mb(c.rss_after_kb)} MB after delete, heap+external ${mb(c.heap_before_kb)} -> ${mb(c.heap_after_kb)} MB`,
    ]);
  for (const [k, v] of Object.entries(r.errors)) rows.push([k, `ERROR ${v.split('\n').slice(0, 3).join(' ')}`]);
  const width = Math.max(...rows.map(([k]) => k.length), 6);
  return [`${'figure'.padEnd(width)}  single-node`, ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`)].join('\n');
}
