/**
 * A tiny typed event emitter. Written here instead of importing Node's 'events' so the SDK bundles
 * for browsers unchanged. Each event carries one argument, typed by the event map `E`.
 */
import { rethrowAsync } from './runtime';

export type Listener<T> = (event: T) => void;

export class Emitter<E extends object> {
  private readonly listeners = new Map<keyof E, Set<Listener<never>>>();

  /** Adds a listener; returns a function that removes it. */
  on<K extends keyof E>(type: K, listener: Listener<E[K]>): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => this.off(type, listener);
  }

  once<K extends keyof E>(type: K, listener: Listener<E[K]>): () => void {
    const off = this.on(type, (event) => {
      off();
      listener(event);
    });
    return off;
  }

  off<K extends keyof E>(type: K, listener: Listener<E[K]>): void {
    this.listeners.get(type)?.delete(listener as Listener<never>);
  }

  /** Resolves with the next event of `type`. */
  next<K extends keyof E>(type: K): Promise<E[K]> {
    return new Promise((resolve) => this.once(type, resolve));
  }

  listenerCount(type: keyof E): number {
    return this.listeners.get(type)?.size ?? 0;
  }

  /**
   * Calls every listener. A throwing listener must not corrupt the caller's state machine (emits
   * happen mid-dispatch), so its error is rethrown asynchronously, where the host reports it.
   */
  protected emit<K extends keyof E>(type: K, event: E[K]): void {
    const set = this.listeners.get(type);
    if (!set || set.size === 0) return;
    for (const listener of [...set] as Listener<E[K]>[]) {
      try {
        listener(event);
      } catch (err) {
        rethrowAsync(err);
      }
    }
  }
}

/** An emitter's `emit`, handed to the parts of a class that report through its events. */
export type EmitFn<E> = <K extends keyof E>(type: K, event: E[K]) => void;
