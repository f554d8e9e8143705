/**
 * The README's "For agents" section, run as written: its sh block is read out of README.md (so the
 * two cannot drift) and run by bash against `npm start`'s service on a free port. Rewritten are
 * only the address (`localhost:8080` → the service's) and the instance in the A2A path; the token
 * comes as PTYWS_TOKEN in the environment, as the README's walk-through exports it. Every `# →`
 * line that shows JSON must be printed as it stands, in order, and the streamed lines must come
 * as the loop prints them, not all at its end.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStandaloneProcess, type StandaloneProcess } from '@pty-ws/testkit';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../..');
const MAX_LINES = 40;

/** The section from its heading to the next `## ` heading. */
function section(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## For agents\n');
  if (start < 0) throw new Error('README.md: no "## For agents" section');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start + 1, end < 0 ? undefined : end + 1);
}

/** Runs a bash script; resolves with its exit code, stderr and each stdout chunk with its arrival time. */
function runBash(
  script: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; stderr: string; chunks: Array<{ at: number; text: string }> }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Array<{ at: number; text: string }> = [];
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => chunks.push({ at: Date.now(), text: c.toString('utf8') }));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, chunks }));
  });
}

describe('README "For agents"', () => {
  let service: StandaloneProcess | undefined;
  const stateDir = mkdtempSync(path.join(tmpdir(), 'ptyws-readme-agents-'));
  afterAll(() => {
    service?.kill();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it(`is at most ${MAX_LINES} lines, right after the walk-through, and shows each step with curl`, () => {
    const text = section();
    expect(text.trimEnd().split('\n').length).toBeLessThanOrEqual(MAX_LINES);
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings[headings.indexOf('For agents') - 1]).toBe('30-second walk-through');
    for (const used of ['/api/v1/sessions -d', '/message:send', '/message:stream', 'taskId', '/screen', '/wait'])
      expect(text).toContain(used);
  });

  it('its commands run verbatim against a started service and print what it says', async () => {
    const text = section();
    const block = /```sh\n([\s\S]*?)```/.exec(text)?.[1];
    if (!block) throw new Error('no sh block in the section');
    service = await startStandaloneProcess({ PTYWS_STATE_DIR: stateDir, PTYWS_LOG_LEVEL: 'warn' });
    const address = new URL(service.httpUrl).host;
    const script = block
      .replaceAll('localhost:8080', address)
      .replaceAll('/agents/local/', `/agents/${service.instanceId}/`);
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PTYWS_')));
    const run = await runBash(`set -eo pipefail\n${script}`, { ...env, PTYWS_TOKEN: service.token }, stateDir);
    const stdout = run.chunks.map((c) => c.text).join('');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });

    // Every JSON the section shows, printed as it stands and in the section's order.
    const shown = [...block.matchAll(/^# → ([[{].*)$/gm)].map((m) => m[1]!);
    expect(shown.length).toBeGreaterThanOrEqual(5);
    const printed = stdout.split('\n');
    let at = 0;
    for (const line of shown) {
      const found = printed.indexOf(line, at);
      if (found < 0) throw new Error(`the README shows ${line}, the commands printed:\n${stdout}`);
      at = found + 1;
    }
    expect(printed).toContain('["TASK_STATE_INPUT_REQUIRED","name? "]');

    // The streamed lines, each as the loop printed it: the loop sleeps a second between lines, so
    // the first reached the script that long before the last (all of them at the end would not).
    expect(stdout).toContain('line 1\nline 2\nline 3\n');
    const arrival = (s: string): number => {
      let sofar = '';
      for (const c of run.chunks) if ((sofar += c.text).includes(s)) return c.at;
      throw new Error(`never printed: ${s}`);
    };
    expect(arrival('line 3') - arrival('line 1')).toBeGreaterThanOrEqual(1000);
  });
});
