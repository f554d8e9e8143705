/**
 * The bench's Markdown summary (loadtest/src/markdown.ts), from which the README's performance
 * table is pasted: rendered from a fixture JSON of a real run (trimmed to three targets, one
 * partial, one skipped), and through `npm run bench -- --markdown-from`, which measures nothing.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchReport, renderMarkdown } from '../../loadtest/src/markdown';

const ROOT = join(__dirname, '..', '..');
const FIXTURE = join(__dirname, 'fixtures', 'bench-report.json');
const BENCH = join(ROOT, 'loadtest', 'dist', 'bench.js');

function bench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BENCH, ...args], { cwd: ROOT, timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('the bench summary as Markdown', () => {
  const report = parseBenchReport(readFileSync(FIXTURE, 'utf8'), FIXTURE);
  const md = renderMarkdown(report);
  const lines = md.split('\n');

  it('is a table with one column per target that ran, in the bench order', () => {
    expect(lines[0]).toBe('| figure | raw-node-pty | uws-floor | embedded |');
    expect(lines[1]).toBe('| --- | ---: | ---: | ---: |');
  });

  it('has the summary figures, each cell as the printed table writes it (value, then ratios)', () => {
    const row = (label: string): string | undefined => lines.find((l) => l.startsWith(`| ${label} |`));
    const e = report.targets['embedded']!.metrics;
    const r = report.targets['raw-node-pty']!.metrics;
    const u = report.targets['uws-floor']!.metrics;
    expect(row('echo p50 ms, 1 session')).toBe(
      `| echo p50 ms, 1 session | ${r.echo_1!.p50_ms.toFixed(3)} | ${u.echo_1!.p50_ms.toFixed(3)} | ${e.echo_1!.p50_ms.toFixed(3)} (3.09x) |`,
    );
    expect(row('attach->keyframe p50 ms, binary')).toMatch(/^\| [^|]+ \| n\/a \| n\/a \| \d+\.\d\d \|$/);
    expect(row('MB/s per observer, 1 obs, median of 5')).toContain('(0.74x, 0.84x paired)');
    expect(row('idle memory KiB/session (100)')).toContain('(21.15x)');
    // The embedded target's big fan-out timed out: its cell says so rather than showing nothing.
    expect(row('MB/s total, 100 obs x 49 MB, median of 3')).toMatch(/\| failed \|$/);
    const labels = lines.slice(2).filter((l) => l.startsWith('| '));
    expect(labels).toHaveLength(10);
  });

  it('says where it was measured and what did not run, without a date or a commit', () => {
    const note = lines.at(-2)!;
    expect(note).toContain(`Profile \`full\`, ${report.machine.cpus} × ${report.machine.cpu_model}`);
    expect(note).toContain('`embedded`: partial (fanout_big: timed out after 66462 ms).');
    expect(note).toContain('Not run: `cluster`.');
    expect(md).not.toContain(report.date.slice(0, 10));
    expect(md).not.toContain(report.machine.git);
  });

  it('refuses what is not a bench result, naming the file', () => {
    expect(() => parseBenchReport('{', 'x.json')).toThrow(/^x\.json: not JSON/);
    expect(() => parseBenchReport('{"schema":"other"}', 'x.json')).toThrow(
      'x.json: not a bench result (schema "other", expected pty-ws-bench/1)',
    );
    expect(() => parseBenchReport('{"schema":"pty-ws-bench/1","profile":{}}', 'x.json')).toThrow(
      'x.json: bench result without "machine"',
    );
  });

  it("is the README's performance table, rendered from the run kept in loadtest/results (cells compared)", () => {
    const cells = (markdown: string): string[][] => {
      const start = markdown.search(/^\| figure +\|/m);
      const end = markdown.indexOf('\n\n', start);
      return markdown
        .slice(start, end)
        .split('\n')
        .filter((l) => !/^\|\s*-/.test(l))
        .map((l) => l.split(/(?<!\\)\|/).map((c) => c.trim()));
    };
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const file = join(ROOT, 'loadtest', 'results', 'bench-full.json');
    expect(readme).toContain('--markdown-from loadtest/results/bench-full.json');
    const kept = renderMarkdown(parseBenchReport(readFileSync(file, 'utf8'), file));
    expect(cells(readme)).toEqual(cells(kept));
    expect(cells(readme).length).toBeGreaterThan(5);
  });

  it('npm run bench -- --markdown-from <file> prints it and runs nothing; a bad file exits 2', async () => {
    const ok = await bench(['--markdown-from', FIXTURE]);
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    expect(ok.stdout).toBe(md);
    const dir = mkdtempSync(join(tmpdir(), 'bench-md-'));
    try {
      writeFileSync(join(dir, 'bad.json'), '[]');
      const bad = await bench(['--markdown-from', join(dir, 'bad.json')]);
      expect([bad.code, bad.stdout]).toEqual([2, '']);
      expect(bad.stderr).toContain('bad.json: not a bench result');
      const missing = await bench(['--markdown-from']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('--markdown-from needs a value');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
