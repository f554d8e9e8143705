import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A script this package runs in a thread or a process of its own, compiled: `rel` is its path
 * under `dist/` (`mirror/mirror-worker.js`). Compiled, this file is in `dist/` too; under ts-jest
 * it is the `.ts` source in `src/`, and the build's copy is used. Undefined before a build.
 */
export function builtScript(rel: string): string | undefined {
  return [join(__dirname, rel), join(__dirname, '..', 'dist', rel)].find((p) => existsSync(p));
}
