/**
 * The bench's summary as a Markdown table, rendered from its JSON: the README's performance table
 * is pasted from this output (`npm run bench -- --markdown`, or `--markdown-from <file.json>` for
 * an earlier run), so it is never assembled by hand. The rows are the table's `summary` rows
 * (table.ts), with the same cells and ratios as the printed table.
 */
import type { MachineInfo } from './machine';
import { TARGET_NAMES, type Profile } from './options';
import type { Ratios } from './ratios';
import { cell, rows } from './table';
import type { TargetResult } from './types';

export const BENCH_SCHEMA = 'pty-ws-bench/1';

/** What `npm run bench` writes (bench.ts). */
export interface BenchReport {
  schema: typeof BENCH_SCHEMA;
  date: string;
  profile: Profile;
  machine: MachineInfo;
  targets: Record<string, TargetResult>;
  ratios: Record<string, Ratios>;
  ratios_to_relay: Record<string, Ratios>;
  ratios_to_wetty: Record<string, Ratios>;
  wall_ms: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a bench JSON; anything else is an error naming the file and what is wrong with it. */
export function parseBenchReport(text: string, file: string): BenchReport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not JSON (${(err as Error).message})`);
  }
  if (!isObject(data)) throw new Error(`${file}: not a bench result (expected an object)`);
  if (data['schema'] !== BENCH_SCHEMA)
    throw new Error(`${file}: not a bench result (schema ${JSON.stringify(data['schema'])}, expected ${BENCH_SCHEMA})`);
  for (const key of ['profile', 'machine', 'targets', 'ratios'])
    if (!isObject(data[key])) throw new Error(`${file}: bench result without "${key}"`);
  const profile = data['profile'] as Record<string, unknown>;
  if (!Array.isArray(profile['observers']) || !isObject(profile['bigFanout']))
    throw new Error(`${file}: bench result whose profile lacks "observers" or "bigFanout"`);
  for (const [name, t] of Object.entries(data['targets'] as Record<string, unknown>))
    if (!isObject(t) || typeof t['status'] !== 'string' || !isObject(t['metrics']))
      throw new Error(`${file}: target "${name}" has no status or metrics`);
  return {
    ratios_to_relay: {},
    ratios_to_wetty: {},
    ...(data as Omit<BenchReport, 'ratios_to_relay' | 'ratios_to_wetty'>),
  } as BenchReport;
}

const escape = (s: string): string => s.replace(/\|/g, '\\|');

/**
 * One row per summary figure, one column per target that ran (in the bench's order), then a line
 * saying what was measured where. No date and no commit: the JSON beside it holds those.
 */
export function renderMarkdown(report: BenchReport): string {
  const known = TARGET_NAMES.filter((n) => report.targets[n]);
  const others = Object.keys(report.targets).filter((n) => !(TARGET_NAMES as readonly string[]).includes(n));
  const targets = [...known, ...others].map((n) => report.targets[n]!).filter((t) => t.status !== 'skipped');
  const header = ['figure', ...targets.map((t) => t.name)];
  const body = rows(report.profile)
    .filter((r) => r.summary)
    .map((r) => [
      r.label,
      ...targets.map((t) =>
        cell(t, r, report.ratios[t.name], report.ratios_to_wetty[t.name], report.ratios_to_relay[t.name]),
      ),
    ]);
  const line = (cells: string[]): string => `| ${cells.map(escape).join(' | ')} |`;
  const m = report.machine;
  const skipped = Object.values(report.targets).filter((t) => t.status === 'skipped');
  const notes = [
    `Profile \`${report.profile.name}\`, ${m.cpus} × ${m.cpu_model}, Node.js ${m.node}, ${m.platform} ${m.kernel}.`,
    // A failed cell says only "failed"; why is told here, as the printed table lists it under itself.
    ...targets
      .filter((t) => t.status !== 'ok')
      .map((t) => {
        const why = [...(t.reason ? [t.reason] : []), ...Object.entries(t.errors).map(([k, e]) => `${k}: ${e}`)];
        return `\`${t.name}\`: ${t.status}${why.length ? ` (${why.join('; ')})` : ''}.`;
      }),
    ...(skipped.length ? [`Not run: ${skipped.map((t) => `\`${t.name}\``).join(', ')}.`] : []),
  ];
  return [line(header), `|${header.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`, ...body.map(line)]
    .concat('', notes.join(' '))
    .join('\n')
    .concat('\n');
}
