import { chmodSync, chownSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkStateDir } from '../src/state-dir';

let parent: string;
beforeEach(() => {
  parent = mkdtempSync(path.join(tmpdir(), 'ptyws-statedir-'));
});
afterEach(() => rmSync(parent, { recursive: true, force: true }));

describe('checkStateDir', () => {
  it('creates a missing directory 0700 and accepts it', () => {
    const dir = path.join(parent, 'a', 'state');
    checkStateDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    checkStateDir(dir);
  });

  it.each([
    [0o777, /writable by others \(mode 0777\)/],
    [0o1777, /writable by others/],
    [0o770, /writable by its group \(mode 0770\)/],
  ])('refuses a directory of mode %o', (mode, message) => {
    chmodSync(parent, mode);
    expect(() => checkStateDir(parent)).toThrow(message);
  });

  it('refuses a directory another user owns (a pre-created /tmp/pty-ws-<uid> fallback)', () => {
    const uid = process.getuid!();
    if (uid === 0) chownSync(parent, 54_321, 54_321);
    expect(() => checkStateDir(parent, uid === 0 ? 0 : uid + 1)).toThrow(/owned by uid \d+, not by this process/);
  });
});
