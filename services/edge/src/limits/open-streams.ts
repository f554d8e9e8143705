import type { CountedConnection } from './shared-limits';

/**
 * Long-lived control-plane responses (A2A SSE streams, gRPC server streams) counted like attach
 * connections: they hold a socket and a task subscription for as long as the task runs, so
 * PTYWS_MAX_CONNS_PER_PRINCIPAL / _PER_INSTANCE cover them too (and, in cluster mode, SharedLimits
 * reports them with the edge's other connections).
 */
export class OpenStreams implements Iterable<CountedConnection> {
  private readonly open = new Set<CountedConnection>();

  /** Counts a stream until the returned function is called (idempotent). */
  add(principalId: string, instanceId: string): () => void {
    const entry: CountedConnection = { principal: { id: principalId }, instanceId };
    this.open.add(entry);
    return () => {
      this.open.delete(entry);
    };
  }

  get size(): number {
    return this.open.size;
  }

  [Symbol.iterator](): Iterator<CountedConnection> {
    return this.open[Symbol.iterator]();
  }
}

/** Attach connections and streams as one list of what a principal and an instance hold open. */
export function* allOpen(...lists: Iterable<CountedConnection>[]): Iterable<CountedConnection> {
  for (const list of lists) yield* list;
}
