/**
 * `npm run bench`: measures raw node-pty, the embedded service and (when built) cluster mode in
 * one run, prints a table with ratios against the raw baseline and writes the figures as JSON.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { killAllChildren, killChildrenOnExit } from './children';
import { missingServiceEnv, missingServiceNodeFlags } from '@pty-ws/config';
import { machineInfo } from './machine';
import { BENCH_SCHEMA, parseBenchReport, renderMarkdown, type BenchReport } from './markdown';
import { TARGET_NAMES, parseArgs, type Options, type Profile, type TargetName } from './options';
import { Budget, PHASE_OVERRUN_MS, log } from './phase';
import { pairedRatios, ratiosFor, type Ratios } from './ratios';
import { renderTable } from './table';
import { clusterUnavailable, startCluster } from './targets/cluster';
import { REPO_ROOT, startEmbedded } from './targets/embedded';
import { benchRaw } from './targets/raw';
import { benchService } from './targets/service-bench';
import { benchRelayFloor } from './targets/relay-floor';
import { benchUwsFloor } from './targets/uws-floor';
import { benchWetty } from './targets/wetty';
import { emptyResult, type TargetResult } from './types';
import type { Service } from './service';

function settle(result: TargetResult): void {
  const m = result.metrics;
  const any = !!(m.echo_1 || m.echo_loaded || m.idle_memory || Object.keys(m.throughput).length);
  if (Object.keys(result.errors).length) result.status = any ? 'partial' : 'error';
}

async function runService(
  name: TargetName,
  start: () => Promise<Service>,
  p: Profile,
  result: TargetResult,
  budget: Budget,
): Promise<void> {
  let svc: Service;
  const t0 = Date.now();
  try {
    svc = await start();
    log(`  ${name} started: ${Date.now() - t0} ms`);
  } catch (err) {
    result.status = 'error';
    result.reason = `could not start ${name}: ${(err as Error).message}`;
    return;
  }
  try {
    await benchService(svc, p, result, budget);
  } finally {
    const t1 = Date.now();
    await svc.stop();
    log(`  ${name} stopped: ${Date.now() - t1} ms`);
  }
}

async function runTarget(name: TargetName, opts: Options, budget: Budget): Promise<TargetResult> {
  const result = emptyResult(name);
  const started = Date.now();
  if (!opts.targets.includes(name)) {
    result.status = 'skipped';
    result.reason = 'not selected (--only)';
    return result;
  }
  log(`${name}:`);
  if (name === 'raw-node-pty') await benchRaw(opts.profile, result, budget);
  else if (name === 'uws-floor') await benchUwsFloor(opts.profile, result, budget);
  else if (name === 'relay-floor') await benchRelayFloor(opts.profile, result, budget);
  else if (name === 'wetty') await benchWetty(opts.profile, result, budget);
  else if (name === 'embedded') await runService(name, startEmbedded, opts.profile, result, budget);
  else {
    const why = clusterUnavailable();
    if (why) {
      result.status = 'skipped';
      result.reason = why;
    } else await runService(name, startCluster, opts.profile, result, budget);
  }
  if (result.status === 'ok') settle(result);
  result.wall_ms = Date.now() - started;
  return result;
}

function outPath(opts: Options, date: Date): string {
  if (opts.out) return opts.out;
  return join(REPO_ROOT, 'bench-results', `${date.toISOString().replace(/[:.]/g, '-')}.json`);
}

async function main(): Promise<void> {
  let opts: Options;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  if (opts.markdownFrom !== undefined) {
    // A file that is missing or not a bench result is a usage error (exit 2), not a failed run.
    try {
      process.stdout.write(
        renderMarkdown(parseBenchReport(readFileSync(opts.markdownFrom, 'utf8'), opts.markdownFrom)),
      );
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(2);
    }
    return;
  }
  const date = new Date();
  const machine = machineInfo(REPO_ROOT);
  const p = opts.profile;
  const budget = new Budget(Date.now() + p.budgetMs);
  // Hard stop: a hung phase must not keep servers and PTYs alive forever.
  const hardLimit = p.budgetMs + PHASE_OVERRUN_MS + 5000;
  setTimeout(() => {
    log(`bench: hard time limit reached (${hardLimit} ms); stopping`);
    killAllChildren();
    process.exit(3);
  }, hardLimit).unref();
  log(`bench: profile ${p.name}, budget ${p.budgetMs / 1000} s, ${machine.cpus} cpus, node ${machine.node}`);
  // The readers of every target live in this process. Without the services' heap floor it ran a
  // full collection every 20-40 ms under the 100-reader fan-out and its readers fell behind: every
  // one was skipped, and the service's total halved.
  const missing = [...missingServiceNodeFlags(), ...missingServiceEnv()];
  if (missing.length > 0)
    log(
      `bench: WARNING: this process runs without ${missing.join(' ')} (npm run bench passes them): fan-out figures will be low`,
    );
  log(
    `bench: echo ${p.echoSamples} round trips per scenario after ${p.echoWarmupSessions} warm-up sessions and ${p.echoWarmup} discarded (every target alike)`,
  );

  // Each target gets a share of the time left, so a slow one cannot starve those after it. The
  // baseline is quick; the services do the same work and weigh the same. wetty's echoes alone take
  // ~25 s (2.4 ms a round trip), and its three stream rounds ~10 s more.
  const weights: Record<TargetName, number> = {
    'raw-node-pty': 1,
    'uws-floor': 1,
    'relay-floor': 1,
    wetty: 2,
    embedded: 3,
    cluster: clusterUnavailable() ? 0 : 3,
  };
  const targets: TargetResult[] = [];
  for (const [i, name] of TARGET_NAMES.entries()) {
    const rest = TARGET_NAMES.slice(i).filter((n) => opts.targets.includes(n));
    const total = rest.reduce((s, n) => s + weights[n], 0);
    targets.push(await runTarget(name, opts, budget.share(weights[name], total)));
  }
  const raw = targets.find((t) => t.name === 'raw-node-pty');
  const wetty = targets.find((t) => t.name === 'wetty');
  const floor = targets.find((t) => t.name === 'uws-floor');
  const relay = targets.find((t) => t.name === 'relay-floor');
  // Ratios to the floor (raw node-pty; the raw uWS publish for fan-out), to the echo floor of a
  // terminal server (the relay: echoes and one stream) and to the peer (wetty).
  const ratios: Record<string, Ratios> = {};
  const ratiosToRelay: Record<string, Ratios> = {};
  const ratiosToWetty: Record<string, Ratios> = {};
  // The relay's paired stream ratio is the ceiling a WebSocket terminal reaches on this machine.
  if (relay) ratios[relay.name] = pairedRatios(relay);
  for (const t of targets) {
    if (t === raw || t === floor || t === relay) continue;
    ratios[t.name] = { ...ratiosFor(t, raw, floor), ...pairedRatios(t) };
    ratiosToRelay[t.name] = ratiosFor(t, relay);
    if (t !== wetty) ratiosToWetty[t.name] = ratiosFor(t, wetty);
  }

  const report: BenchReport = {
    schema: BENCH_SCHEMA,
    date: date.toISOString(),
    profile: p,
    machine,
    targets: Object.fromEntries(targets.map((t) => [t.name, t])),
    ratios,
    ratios_to_relay: ratiosToRelay,
    ratios_to_wetty: ratiosToWetty,
    wall_ms: Date.now() - date.getTime(),
  };
  const file = outPath(opts, date);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(
    `\n${renderTable(p, targets, ratios, ratiosToWetty, ratiosToRelay)}\n\nJSON: ${file} (${(report.wall_ms / 1000).toFixed(1)} s)\n`,
  );
  if (opts.markdown) {
    const md = renderMarkdown(report);
    const mdFile = file.replace(/\.json$/, '') + '.md';
    writeFileSync(mdFile, md);
    process.stdout.write(`\n${md}\nMarkdown: ${mdFile}\n`);
  }
}

killChildrenOnExit();
main().then(
  // Sockets and timers of finished phases must not keep us alive: everything is written.
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
