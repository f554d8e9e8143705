/**
 * `npx ptyctl` right after `npm ci`: the linked bin is the committed shim, which builds dist/ when
 * it is missing (a fresh clone) and runs it. The real dist/ is shared with the other test
 * workers, so "missing" is a mirror of the repository: this package copied without dist/, the
 * rest (the packages it imports, node_modules, tsconfig.base.json) linked to the real ones.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../../..');
const PKG = path.join(ROOT, 'packages/ptyctl');

function ptyctl(bin: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: path.dirname(bin), encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the ptyctl bin', () => {
  it('is the committed shim, linked by npm into node_modules/.bin', () => {
    const manifest = JSON.parse(readFileSync(path.join(PKG, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(manifest.bin).toEqual({ ptyctl: 'bin/ptyctl.js' });
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { bin?: Record<string, string> }>;
    };
    expect(lock.packages['packages/ptyctl']?.bin).toEqual(manifest.bin);
  });

  it('runs dist/main.js when it is built', () => {
    const r = ptyctl(path.join(PKG, 'bin/ptyctl.js'), '--help');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: ptyctl /);
  });

  describe('in a clone without dist/', () => {
    const mirror = mkdtempSync(path.join(tmpdir(), 'ptyctl-fresh-'));
    const copy = path.join(mirror, 'packages/ptyctl');
    afterAll(() => rmSync(mirror, { recursive: true, force: true }));

    beforeAll(() => {
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(mirror, 'node_modules'));
      symlinkSync(path.join(ROOT, 'tsconfig.base.json'), path.join(mirror, 'tsconfig.base.json'));
      mkdirSync(path.join(mirror, 'packages'));
      for (const dep of ['protocol', 'client'])
        symlinkSync(path.join(ROOT, 'packages', dep), path.join(mirror, 'packages', dep));
      for (const part of ['bin', 'src', 'package.json', 'tsconfig.json'])
        cpSync(path.join(PKG, part), path.join(copy, part), { recursive: true });
      // What npm ci installed for this workspace alone (commander), as in a fresh clone.
      if (existsSync(path.join(PKG, 'node_modules')))
        symlinkSync(path.join(PKG, 'node_modules'), path.join(copy, 'node_modules'));
    });

    it('says it builds, builds once, then runs; the next run just runs', () => {
      const bin = path.join(copy, 'bin/ptyctl.js');
      expect(existsSync(path.join(copy, 'dist/main.js'))).toBe(false);
      const first = ptyctl(bin, '--help');
      expect(first.stderr).toMatch(/^ptyctl: not built yet \(.*dist\/main\.js is missing\); building it once/);
      expect(first.status).toBe(0);
      expect(first.stdout).toMatch(/^Usage: ptyctl /);
      expect(existsSync(path.join(copy, 'dist/main.js'))).toBe(true);

      const second = ptyctl(bin, '--help');
      expect(second.stderr).toBe('');
      expect(second.stdout).toBe(first.stdout);
    });

    it('fails with one line naming the way out when the build fails', () => {
      rmSync(path.join(copy, 'dist'), { recursive: true, force: true });
      rmSync(path.join(copy, 'tsconfig.tsbuildinfo'), { force: true });
      const broken = path.join(copy, 'src/main.ts');
      appendFileSync(broken, '\nconst notANumber: number = "text";\n');
      const r = ptyctl(path.join(copy, 'bin/ptyctl.js'), '--help');
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n').pop()).toMatch(/^ptyctl: the build failed \(tsc exit \d+\); `npm run build`/);
    });
  });
});
