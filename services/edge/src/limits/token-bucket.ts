import { systemClock, type Clock } from '@pty-ws/ports';

/**
 * A token bucket: `ratePerS` tokens a second, at most `burst` stored. Refilled lazily on use, so
 * an idle bucket costs nothing and needs no timer.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly ratePerS: number,
    readonly burst: number,
    private readonly clock: Clock = systemClock,
  ) {
    this.tokens = burst;
    // The monotonic clock: wall-clock jumps must not refill or drain buckets.
    this.last = clock.monotonic();
  }

  /** Takes `n` tokens when available; a request larger than the burst is never admitted. */
  take(n = 1): boolean {
    this.refill();
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }

  /** Takes `n` tokens spent elsewhere (another edge admitted them); never below empty. */
  charge(n: number): void {
    this.refill();
    this.tokens = Math.max(0, this.tokens - n);
  }

  /** Gives back `n` tokens taken for something that turned out not to count (never above the burst). */
  refund(n: number): void {
    this.refill();
    this.tokens = Math.min(this.burst, this.tokens + n);
  }

  /** Seconds until `n` tokens are available (for Retry-After); Infinity when n exceeds the burst. */
  secondsUntil(n = 1): number {
    this.refill();
    if (n > this.burst) return Infinity;
    return Math.max(0, (n - this.tokens) / this.ratePerS);
  }

  /** Full again: nothing to remember about this key. */
  get idle(): boolean {
    this.refill();
    return this.tokens >= this.burst;
  }

  private refill(): void {
    const t = this.clock.monotonic();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.ratePerS);
    this.last = t;
  }
}

/** One bucket per key (principal, instance); full buckets are forgotten so the map stays small. */
export class KeyedBuckets {
  private readonly buckets = new Map<string, TokenBucket>();
  private takesSinceSweep = 0;

  constructor(
    private readonly ratePerS: number,
    private readonly burst: number,
    private readonly clock: Clock = systemClock,
    private readonly sweepEvery = 1024,
  ) {}

  take(key: string, n = 1): boolean {
    return this.bucket(key).take(n);
  }

  secondsUntil(key: string, n = 1): number {
    return this.buckets.get(key)?.secondsUntil(n) ?? 0;
  }

  refund(key: string, n = 1): void {
    this.buckets.get(key)?.refund(n);
  }

  /** Charges `n` tokens to the key's bucket without refusing (admissions made elsewhere). */
  charge(key: string, n: number): void {
    this.bucket(key).charge(n);
  }

  /**
   * The key's bucket, made on first use. Charges count toward the sweep like takes: in cluster
   * mode other edges' admissions create buckets here too, and they must be swept as well.
   */
  private bucket(key: string): TokenBucket {
    if (++this.takesSinceSweep >= this.sweepEvery) this.sweep();
    let b = this.buckets.get(key);
    if (!b) {
      b = new TokenBucket(this.ratePerS, this.burst, this.clock);
      this.buckets.set(key, b);
    }
    return b;
  }

  get size(): number {
    return this.buckets.size;
  }

  private sweep(): void {
    this.takesSinceSweep = 0;
    for (const [key, b] of this.buckets) if (b.idle) this.buckets.delete(key);
  }
}
