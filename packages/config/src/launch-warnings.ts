import { nodeFlagsWarning } from './node-flags';
import { serviceEnvWarning } from './service-env';

/** What a service says at startup about how it was launched: its `node` options, its environment. */
export function launchWarnings(): Array<{ fields: Record<string, string[]>; message: string }> {
  return [nodeFlagsWarning(), serviceEnvWarning()].filter((w) => w !== undefined);
}
