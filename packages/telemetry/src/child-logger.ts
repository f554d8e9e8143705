import type { Logger } from './logger';

/** A logger that may make children (pino does); test loggers often cannot. */
interface MaybeParent extends Logger {
  child?: (bindings: Record<string, unknown>) => Logger;
}

/**
 * A logger whose every line carries `bindings` (connection, session, task, trace ids): pino's
 * child logger when there is one, otherwise a wrapper that merges the fields into each line.
 */
export function childLogger(parent: Logger, bindings: Record<string, unknown>): Logger {
  const p = parent as MaybeParent;
  if (typeof p.child === 'function') return p.child(bindings);
  const merge = (obj: object): object => ({ ...bindings, ...obj });
  return {
    debug: (obj, msg) => parent.debug(merge(obj), msg),
    info: (obj, msg) => parent.info(merge(obj), msg),
    warn: (obj, msg) => parent.warn(merge(obj), msg),
    error: (obj, msg) => parent.error(merge(obj), msg),
  };
}
