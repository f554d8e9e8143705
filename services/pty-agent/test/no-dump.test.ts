import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { refuseDumps } from '../src/hosts/no-dump';

/**
 * The agent and its spawner load native/no-dump.c: a process of the same user, such as a program
 * the agent started, can then no longer open the agent's /proc/<pid>/environ or mem. Run as
 * nobody when the test runs as root (root may read any process's files), on a copy of the
 * library that nobody can read wherever the checkout is.
 */
const LIBRARY = path.join(__dirname, '..', 'dist', 'native', 'no-dump.node');

describe('no-dump', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ptyws-nodump-'));
  const copy = path.join(dir, 'no-dump.node');
  beforeAll(() => {
    copyFileSync(LIBRARY, copy);
    chmodSync(dir, 0o755);
    chmodSync(copy, 0o755);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** What a child of a node process (same user) gets when it opens that process's environ and mem. */
  function childReadsParent(refuse: boolean): string {
    const script = `
      const { execFileSync } = require('node:child_process');
      if (${refuse}) process.dlopen({ exports: {} }, ${JSON.stringify(copy)});
      for (const f of ['environ', 'mem']) {
        try {
          execFileSync('sh', ['-c', 'exec 3</proc/' + process.pid + '/' + f], { stdio: 'ignore' });
          console.log(f + ' opened');
        } catch {
          console.log(f + ' refused');
        }
      }`;
    const asNobody = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
    const [file, ...args] = [...asNobody, process.execPath, '-e', script];
    const run = spawnSync(file!, args, { encoding: 'utf8', cwd: '/' });
    if (run.status !== 0) throw new Error(run.stderr);
    return run.stdout.trim();
  }

  it("keeps a process's environ and memory from the programs it starts", () => {
    expect(childReadsParent(false)).toBe('environ opened\nmem opened');
    expect(childReadsParent(true)).toBe('environ refused\nmem refused');
  });

  it('is what the agent loads (built by npm run build)', () => {
    expect(refuseDumps()).toBe(true);
  });
});
