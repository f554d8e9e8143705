import { builtScript } from '../built-script';

/**
 * Marks this process not dumpable (native/no-dump.c): its /proc files (environ, mem) become
 * root's and no process without CAP_SYS_PTRACE may trace it, its own user's included. False when
 * the library was not built (no C compiler) or cannot be loaded here.
 */
export function refuseDumps(): boolean {
  const library = builtScript('native/no-dump.node');
  if (!library || process.platform !== 'linux') return false;
  try {
    process.dlopen({ exports: {} }, library);
    return true;
  } catch {
    return false;
  }
}
