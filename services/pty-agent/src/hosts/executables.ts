import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import path from 'node:path';

/** Where `name` resolves on PATH (absolute and executable), like the shell's lookup; undefined if nowhere. */
export function findExecutable(name: string, searchPath = process.env['PATH'] ?? '/usr/bin:/bin'): string | undefined {
  for (const dir of searchPath.split(':')) {
    if (!dir.startsWith('/')) continue; // relative PATH entries would depend on the agent's cwd
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, fsConstants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      /* not here */
    }
  }
  return undefined;
}
