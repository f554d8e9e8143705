import { SearchableText } from '@pty-ws/protocol';
import type { RE2JS } from 're2js';

/**
 * What a wait looks for: a literal string, searched as it is in the output, or a regular
 * expression run by RE2 (re2js: linear in the text's length whatever the pattern, so a pattern
 * like `(a+)+$` cannot stall the edge).
 */
export type WaitPattern = { kind: 'literal'; text: string } | { kind: 'regex'; source: string; re: RE2JS };

export interface OutputHit {
  /** The matched text (escape sequences removed), at most MAX_HIT_CHARS of it. */
  text: string;
  /** Sequence of the frame holding the match's first character, and its last. */
  startSeq: number;
  endSeq: number;
}

/**
 * Characters a regex wait keeps: the longest line it sees whole (a longer one is seen by its
 * tail). A literal wait keeps the answer's tail and the pattern's length.
 */
export const REGEX_KEEP_CHARS = 128 * 1024;
const MAX_HIT_CHARS = 4096;

/**
 * Incremental matching over a session's output as text (escape sequences removed, a character
 * split across frames whole: SearchableText). Each frame costs about its own length: a literal
 * is searched in the new text plus the pattern's length before it; a regex runs once over each
 * line completed by the frame (in multi-line mode, `\r\n` and `\r` ending lines, so `$` is a
 * line's end and never the end of a frame that cut a line). The line still being written is run
 * only by `settle()`, once output pauses or the wait ends: a prompt has no newline.
 */
export class OutputScan {
  private readonly text = new SearchableText();
  /** Literal: the first offset a match can still start at. Regex: the start of the unfinished line. */
  private scanFrom = 0;
  private droppedChars = 0;

  private readonly keepChars: number;

  /** `tailChars`: the output an answer carries (`tail`). */
  constructor(
    private readonly pattern: WaitPattern | undefined,
    tailChars: number,
  ) {
    this.keepChars = Math.max(tailChars, pattern?.kind === 'regex' ? REGEX_KEEP_CHARS : (pattern?.text.length ?? 0));
  }

  /** Adds one Output frame's bytes; the hit when the pattern now matches. */
  push(seq: number, data: Uint8Array): OutputHit | undefined {
    const before = this.text.length;
    this.text.push(seq, data);
    const hit = this.scan(before);
    this.bound();
    return hit;
  }

  /** Runs a regex over the unfinished line too. */
  settle(): OutputHit | undefined {
    return this.pattern?.kind === 'regex' ? this.runRegex(this.pattern.re, this.text.length) : undefined;
  }

  /** Whether `settle()` has text to look at that `push` did not run the regex over. */
  get hasUnfinishedLine(): boolean {
    return this.pattern?.kind === 'regex' && this.scanFrom < this.text.length;
  }

  /** The last `limit` characters of the text seen, and how many characters were seen in all. */
  tail(limit: number): { text: string; totalChars: number } {
    return {
      text: this.text.slice(Math.max(0, this.text.length - limit)),
      totalChars: this.droppedChars + this.text.length,
    };
  }

  private scan(before: number): OutputHit | undefined {
    const p = this.pattern;
    if (!p) return undefined;
    if (p.kind === 'literal') {
      const at = this.text.slice(this.scanFrom).indexOf(p.text);
      if (at >= 0) return this.hit(this.scanFrom + at, this.scanFrom + at + p.text.length);
      this.scanFrom = Math.max(this.scanFrom, this.text.length - p.text.length + 1);
      return undefined;
    }
    const added = this.text.slice(before);
    const lastEnd = Math.max(added.lastIndexOf('\n'), added.lastIndexOf('\r'));
    return lastEnd < 0 ? undefined : this.runRegex(p.re, before + lastEnd + 1, true);
  }

  /** Runs the regex over [scanFrom, end); `advance`: those are whole lines, never run again. */
  private runRegex(re: RE2JS, end: number, advance = false): OutputHit | undefined {
    if (end <= this.scanFrom) return undefined;
    const { lines, original } = asLines(this.text.slice(this.scanFrom, end));
    const m = re.matcher(lines);
    if (m.find()) return this.hit(this.scanFrom + original(m.start()), this.scanFrom + original(m.end()));
    if (advance) this.scanFrom = end;
    return undefined;
  }

  private hit(start: number, end: number): OutputHit {
    return {
      text: this.text.slice(start, Math.min(end, start + MAX_HIT_CHARS)),
      startSeq: this.text.seqAt(start),
      endSeq: this.text.seqAt(Math.max(start, end - 1)),
    };
  }

  private bound(): void {
    const dropped = this.text.keepTail(this.keepChars);
    this.droppedChars += dropped;
    this.scanFrom = Math.max(0, this.scanFrom - dropped);
  }
}

/**
 * The block with every line end as `\n` (a terminal ends lines with `\r\n`, progress lines with
 * `\r`), and the way back from an offset in it to one in the block.
 */
function asLines(block: string): { lines: string; original: (i: number) => number } {
  /** Offsets (in `lines`) of the `\n`s that replaced a `\r\n`: one character shorter each. */
  const shortened: number[] = [];
  let lines = '';
  let last = 0;
  for (const m of block.matchAll(/\r\n?/g)) {
    lines += block.slice(last, m.index) + '\n';
    if (m[0].length === 2) shortened.push(lines.length - 1);
    last = m.index + m[0].length;
  }
  lines += block.slice(last);
  const original = (i: number): number => {
    let lo = 0;
    let hi = shortened.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (shortened[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    return i + lo;
  };
  return { lines, original };
}
