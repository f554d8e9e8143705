/**
 * `npm run capacity`: grows the work on one single-node service and prints the cost curve: idle
 * observer sockets on one edge, live idle sessions on one agent, sessions typing at once, an
 * attach storm against the raw uWS upgrade floor, and the memory after session churn. Progress on
 * stderr, a table on stdout, every figure as JSON (bench-results/capacity-<timestamp>.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { killAllChildren, killChildrenOnExit } from './children';
import { machineInfo } from './machine';
import { Budget, Cleanup, PHASE_OVERRUN_MS, log } from './phase';
import { REPO_ROOT, startEmbedded } from './targets/embedded';
import type { Service } from './service';
import { attachStorm } from './capacity/attach-storm';
import { churn } from './capacity/churn';
import { Collector } from './capacity/collect';
import { idleSessions } from './capacity/idle-sessions';
import { idleSockets, levelsWithinFileLimit } from './capacity/idle-sockets';
import { parseCapacityArgs, type CapacityOptions, type CapacityPhase } from './capacity/profile';
import { GOALS, renderCapacityTable, type CapacityReport } from './capacity/report';
import { typingAtOnce } from './capacity/typing';

/**
 * Caps lifted for the run: observers per session and per principal (one token holds 10k sockets
 * here), sockets per edge, sessions per agent and instance. PTYWS_WS_BUFFER_BUDGET and
 * PTYWS_MAX_FRAME_BYTES stay at their defaults: they must admit 10k sockets as shipped.
 */
/** Idle sessions' mirrors sleep after this (default 10 s): the run waits for it once, not twenty seconds. */
const MIRROR_SLEEP_S = 3;

const CAPACITY_ENV: Record<string, string> = {
  PTYWS_MIRROR_SLEEP_S: String(MIRROR_SLEEP_S),
  PTYWS_MAX_OBSERVERS: '10000',
  PTYWS_OBSERVERS_PER_PRINCIPAL: '10000',
  PTYWS_MAX_SOCKETS: '100000',
  PTYWS_MAX_SESSIONS_PER_AGENT: '5000',
  PTYWS_MAX_SESSIONS_PER_INSTANCE: '5000',
};

/** One phase on a fresh service: its failure is recorded and the run goes on. */
async function runPhase(
  report: CapacityReport,
  name: string,
  budget: Budget,
  fn: (svc: Service, cleanup: Cleanup, gc: Collector) => Promise<void>,
): Promise<void> {
  if (budget.left <= 0) {
    report.errors[name] = 'skipped: time budget exhausted';
    return;
  }
  log(`${name}:`);
  const cleanup = new Cleanup();
  let timer: NodeJS.Timeout | undefined;
  const t0 = Date.now();
  try {
    const gc = new Collector();
    cleanup.add(() => gc.dispose());
    const svc = await startEmbedded(CAPACITY_ENV, gc.nodeFlags);
    cleanup.add(() => svc.stop());
    const limit = Math.max(budget.left, 0) + PHASE_OVERRUN_MS;
    await Promise.race([
      fn(svc, cleanup, gc),
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${limit} ms`)), limit)),
      ),
    ]);
    log(`  ${name}: ${Date.now() - t0} ms`);
  } catch (err) {
    report.errors[name] = (err as Error).message;
    log(`  ${name}: FAILED ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
    await cleanup.run();
  }
}

async function main(): Promise<void> {
  let opts: CapacityOptions;
  try {
    opts = parseCapacityArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  killChildrenOnExit();
  const p = opts.profile;
  const started = Date.now();
  const date = new Date();
  const budget = new Budget(started + p.budgetMs);
  const hardLimit = p.budgetMs + PHASE_OVERRUN_MS + 15_000;
  setTimeout(() => {
    log(`capacity: hard time limit reached (${hardLimit} ms); stopping`);
    killAllChildren();
    process.exit(3);
  }, hardLimit).unref();
  const report: CapacityReport = {
    schema: 'pty-ws-capacity/1',
    date: date.toISOString(),
    mode: 'single-node',
    profile: p,
    phases: opts.phases,
    machine: machineInfo(REPO_ROOT),
    goals: GOALS,
    errors: {},
    wall_ms: 0,
  };
  log(`capacity: profile ${p.name}, budget ${p.budgetMs / 1000} s`);
  const sockets = levelsWithinFileLimit(p.sockets);
  // Shares of the time left: sockets and sessions weigh most (10k joins, 1000 spawns).
  const all: Array<[CapacityPhase, number, (svc: Service, c: Cleanup, gc: Collector) => Promise<void>]> = [
    ['idle_sockets', 3, async (svc, c) => void (report.idle_sockets = await idleSockets(svc, sockets, p.restMs, c))],
    [
      'idle_sessions',
      3,
      async (svc, c, gc) =>
        void (report.idle_sessions = await idleSessions(svc, p.sessions, MIRROR_SLEEP_S * 1000, gc, c)),
    ],
    ['typing', 2, async (svc) => void (report.typing = await typingAtOnce(svc, p.typing, p.typingRateHz, p.typingMs))],
    [
      'attach_storm',
      1,
      async (svc, c) => void (report.attach_storm = await attachStorm(svc, p.stormAttaches, p.stormConcurrency, c)),
    ],
    ['churn', 1, async (svc, c, gc) => void (report.churn = await churn(svc, p.churnSessions, gc, c))],
  ];
  const phases = all.filter(([name]) => opts.phases.includes(name));
  for (const [i, [name, weight, fn]] of phases.entries()) {
    const total = phases.slice(i).reduce((s, [, w]) => s + w, 0);
    await runPhase(report, name, budget.share(weight, total), fn);
  }
  report.wall_ms = Date.now() - started;
  const out = opts.out ?? join(REPO_ROOT, 'bench-results', `capacity-${date.toISOString().replace(/[:.]/g, '-')}.json`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(`${renderCapacityTable(report)}\nJSON: ${out}\n`);
  process.exit(Object.keys(report.errors).length ? 1 : 0);
}

void main().catch((err: unknown) => {
  log(`capacity: ${(err as Error).stack ?? String(err)}`);
  killAllChildren();
  process.exit(1);
});
