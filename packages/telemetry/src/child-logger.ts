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
  return boundLogger(parent, bindings);
}

/**
 * A logger that merges `bindings` into each line it writes and keeps nothing else: cheap to make
 * per call where a child would be kept per object (a pino child costs about 1 KB and is made for
 * every call's level whether or not it logs). The line carries the same fields, bindings first.
 */
export function boundLogger(parent: Logger, bindings: Record<string, unknown>): Logger {
  const merge = (obj: object): object => ({ ...bindings, ...obj });
  return {
    debug: (obj, msg) => parent.debug(merge(obj), msg),
    info: (obj, msg) => parent.info(merge(obj), msg),
    warn: (obj, msg) => parent.warn(merge(obj), msg),
    error: (obj, msg) => parent.error(merge(obj), msg),
  };
}
