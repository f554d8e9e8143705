/**
 * The state directory at start (npm start as its own process): one that others may write to is
 * refused with a clear error, and a symlink planted as `audit.jsonl` (or any file the service
 * keeps there) is never followed: the file it names gains nothing.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStandaloneProcess } from '@pty-ws/testkit';

jest.setTimeout(60_000);

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'ptyws-state-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

it('refuses to start on a state directory others may write to', async () => {
  const state = path.join(scratch, 'state');
  mkdirSync(state);
  chmodSync(state, 0o777);
  await expect(startStandaloneProcess({ PTYWS_STATE_DIR: state, PTYWS_LOG_LEVEL: 'warn' })).rejects.toThrow(
    /PTYWS_STATE_DIR .* is writable by others \(mode 0777\)/,
  );
});

it('does not follow a symlink planted as audit.jsonl', async () => {
  const state = path.join(scratch, 'state');
  mkdirSync(state);
  chmodSync(state, 0o700);
  const victim = path.join(scratch, 'victim.txt');
  writeFileSync(victim, 'precious\n');
  symlinkSync(victim, path.join(state, 'audit.jsonl'));
  await expect(startStandaloneProcess({ PTYWS_STATE_DIR: state, PTYWS_LOG_LEVEL: 'warn' })).rejects.toThrow(
    /audit\.jsonl is a symbolic link; refusing to follow it/,
  );
  expect(readFileSync(victim, 'utf8')).toBe('precious\n');
});
