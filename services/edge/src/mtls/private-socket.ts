import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A unix socket path in a fresh directory only this user may enter (mkdtemp: mode 0700), for the
 * app behind the mTLS front. Short: socket paths are limited to about 107 bytes.
 */
export function privateSocketPath(): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'ptyws-mtls-'));
  return { path: join(dir, 'app.sock'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
