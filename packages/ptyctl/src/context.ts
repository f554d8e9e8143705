import type { Command } from 'commander';
import { resolveSettings, type GlobalFlags, type Settings } from './settings';

/** Settings for a command from the global flags (which commander accepts before or after it). */
export function settingsOf(cmd: Command): Settings {
  return resolveSettings(cmd.optsWithGlobals<GlobalFlags>());
}
