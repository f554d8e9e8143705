/**
 * A session's lifecycle states and the one order they come in, for the runtime that owns them and
 * the output path that reads them.
 */

export type Lifecycle = 'running' | 'closing' | 'closed';

/** One way only: running → closing (the process ended, or the agent lets go of it) → closed. */
export const NEXT: Readonly<Record<Lifecycle, Lifecycle | undefined>> = {
  running: 'closing',
  closing: 'closed',
  closed: undefined,
};
