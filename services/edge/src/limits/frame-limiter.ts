import type { RateLimit } from '@pty-ws/telemetry';
import { TokenBucket } from './token-bucket';
import { systemClock, type Clock } from '@pty-ws/ports';

export interface FrameLimits {
  frameRatePerConn: number;
  inputBytesPerConn: number;
  /** PTYWS_ABUSE_REFUSALS: refusals in a row that end the connection; default STRIKE_BURST. */
  abuseRefusals?: number;
  /** PTYWS_ABUSE_REFUSALS_PER_S: sustained refusals per second that end it; default STRIKE_RATE_PER_S. */
  abuseRefusalsPerS?: number;
}

/**
 * Refused frames a connection may accumulate: a client that briefly overshoots gets Error frames
 * and carries on, one that keeps flooding after being told is closed (binding §11: "sustained
 * abuse warrants RATE_LIMITED errors and connection close"). Strikes drain at PTYWS_ABUSE_REFUSALS_PER_S,
 * so roughly PTYWS_ABUSE_REFUSALS refusals in a row, or a steady refusal rate above that drain, ends
 * it. These are the defaults of those variables.
 */
export const STRIKE_BURST = 100;
export const STRIKE_RATE_PER_S = 10;

export type FrameVerdict = { ok: true } | { ok: false; limit: RateLimit; abusive: boolean; message: string };

const OK: FrameVerdict = { ok: true };

/**
 * Per-connection inbound budget: frames per second and PTY input bytes per second. The input and
 * strike buckets are made on first use: a bucket nobody has taken from is full whenever it is
 * made, and most connections (observers) never type or get refused.
 */
export class FrameLimiter {
  private readonly frames: TokenBucket;
  private input: TokenBucket | undefined;
  private strikes: TokenBucket | undefined;

  constructor(
    private readonly limits: FrameLimits,
    private readonly clock: Clock = systemClock,
  ) {
    // One second of allowance as burst: bursty typing or paste is fine, a sustained flood is not.
    this.frames = new TokenBucket(limits.frameRatePerConn, limits.frameRatePerConn, clock);
  }

  /** Every inbound message, before it is parsed. */
  frame(): FrameVerdict {
    if (this.frames.take()) return OK;
    return this.refuse('frames', `more than ${this.limits.frameRatePerConn} frames per second on this connection`);
  }

  /** PTY input bytes of one frame (decoded size). */
  inputBytes(n: number): FrameVerdict {
    this.input ??= new TokenBucket(this.limits.inputBytesPerConn, this.limits.inputBytesPerConn, this.clock);
    if (this.input.take(n)) return OK;
    return this.refuse(
      'input_bytes',
      `more than ${this.limits.inputBytesPerConn} input bytes per second on this connection`,
    );
  }

  private refuse(limit: RateLimit, message: string): FrameVerdict {
    this.strikes ??= new TokenBucket(
      this.limits.abuseRefusalsPerS ?? STRIKE_RATE_PER_S,
      this.limits.abuseRefusals ?? STRIKE_BURST,
      this.clock,
    );
    return { ok: false, limit, abusive: !this.strikes.take(), message };
  }
}

/** Decoded size of a base64 string without decoding it (padding ignored: an estimate is enough). */
export function base64DecodedLength(text: string): number {
  return Math.floor((text.length * 3) / 4);
}
