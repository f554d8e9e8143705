/**
 * Output and exit of a PTY process for listeners that subscribe late. A caller that awaits
 * anything between spawn and subscribing (a registry write, a log lookup: real I/O in cluster
 * mode) would otherwise miss what the process printed first, and an exit that already happened.
 * One implementation for the native host and the multiplexer client (held output used to be
 * written out in both).
 */

/** Chunks emitted while nobody listened are kept and handed to the listeners of the first subscription's tick. */
export class HeldOutput<T> {
  private readonly listeners: Array<(chunk: T) => void> = [];
  private held: T[] = [];

  /** What is held right now (emitted before the first listener). */
  get pending(): readonly T[] {
    return this.held;
  }

  emit(chunk: T): void {
    if (this.listeners.length === 0) this.held.push(chunk);
    else for (const l of this.listeners) l(chunk);
  }

  /** Puts a chunk before everything held (before the first listener; after it, the same as emit). */
  prepend(chunk: T): void {
    if (this.listeners.length === 0) this.held.unshift(chunk);
    else this.emit(chunk);
  }

  /**
   * What was held goes, on a microtask, to every listener subscribed by then: a session's runtime
   * and its live-shell executor subscribe in the same tick, and both need the first prompt. New
   * output cannot overtake it: PTY data arrives from I/O callbacks, which run after microtasks.
   */
  subscribe(listener: (chunk: T) => void): void {
    this.listeners.push(listener);
    if (this.listeners.length !== 1 || this.held.length === 0) return;
    const held = this.held;
    this.held = [];
    queueMicrotask(() => held.forEach((chunk) => this.listeners.forEach((l) => l(chunk))));
  }
}

/** An event that happens once (exit); a listener that comes after it hears it on a microtask, after held output. */
export class LatchedEvent<T> {
  private readonly listeners: Array<(value: T) => void> = [];
  private value: { readonly v: T } | undefined;

  fire(value: T): void {
    this.value = { v: value };
    for (const l of this.listeners) l(value);
  }

  subscribe(listener: (value: T) => void): void {
    this.listeners.push(listener);
    const fired = this.value;
    if (fired) queueMicrotask(() => listener(fired.v));
  }
}
