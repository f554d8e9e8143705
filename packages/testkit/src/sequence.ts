/**
 * Per-connection sequence rules (binding §8.1, docs/spec/README.md interpretation 1): log frames take a
 * fresh, strictly increasing number; frames addressed to one connection carry the sequence of
 * the last log frame already written to it (0 if none), so `sequence` never decreases.
 */
import { describeFrame, isEitherLogOrConnectionFrame, isLogFrame, seqOf, type Received } from './frames';

/** Returns the violations found (empty when the connection's frames follow the rules). */
export function sequenceViolations(frames: readonly Received[]): string[] {
  const out: string[] = [];
  let last = 0;
  frames.forEach((r, i) => {
    if (r.type === 'text') {
      out.push(`#${i}: unparsable text frame`);
      return;
    }
    const seq = seqOf(r);
    if (seq === undefined || !Number.isInteger(seq) || seq < 0) {
      out.push(`#${i} ${describeFrame(r)}: missing or invalid sequence`);
      return;
    }
    if (isLogFrame(r)) {
      if (seq <= last) out.push(`#${i} ${describeFrame(r)}: log frame sequence ${seq} not above ${last}`);
      last = Math.max(last, seq);
    } else if (isEitherLogOrConnectionFrame(r)) {
      if (seq < last) out.push(`#${i} ${describeFrame(r)}: sequence ${seq} below ${last}`);
      last = Math.max(last, seq);
    } else if (seq !== last) {
      out.push(`#${i} ${describeFrame(r)}: connection frame should carry ${last} (last log frame), has ${seq}`);
    }
  });
  return out;
}

/** Sequences of the log frames (including logged keyframes) in arrival order. */
export function logSequences(frames: readonly Received[]): number[] {
  const out: number[] = [];
  let last = 0;
  for (const r of frames) {
    const seq = seqOf(r);
    if (seq === undefined) continue;
    if (isLogFrame(r) || (isEitherLogOrConnectionFrame(r) && seq > last)) {
      out.push(seq);
      last = Math.max(last, seq);
    }
  }
  return out;
}

/** Gaps in a list of sequence numbers expected to be contiguous. */
export function gaps(seqs: readonly number[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < seqs.length; i++) {
    const a = seqs[i - 1] as number;
    const b = seqs[i] as number;
    if (b !== a + 1) out.push(`${a} → ${b}`);
  }
  return out;
}

/**
 * Sequence regressions seen by any TestClient of this process since the last take: README
 * interpretation 1 says `sequence` never decreases on a connection, whatever the frame. Every
 * client checks every frame it receives, so no frame kind can regress unnoticed; the jest set-up
 * (tests/setup/sequence-guard.ts) fails the test that was running.
 */
const regressions: string[] = [];

/** Returns and forgets the regressions recorded so far (see `regressions`). */
export function takeSequenceRegressions(): string[] {
  return regressions.splice(0, regressions.length);
}

/** Watches one connection's frames for a `sequence` below one it already received. */
export class SequenceWatch {
  private highest = 0;
  /** The first regression on this connection, if any. */
  regression: string | undefined;

  /** Records `r`; `recent` describes the last frames for the failure message. */
  check(r: Received, recent: () => string): void {
    const seq = seqOf(r);
    if (seq === undefined) return;
    if (seq < this.highest) {
      const message = `sequence decreased on a connection: ${describeFrame(r)} after sequence ${this.highest}; last frames ${recent()}`;
      this.regression ??= message;
      regressions.push(message);
    }
    this.highest = Math.max(this.highest, seq);
  }
}
