/**
 * Searches terminal output as a person reads it (the transcript API's `q` on the edge, and
 * `ptyctl transcript --follow --grep`): the Output frames' bytes decoded as one UTF-8
 * stream (a character split across two frames is whole), with escape sequences (colours, cursor
 * moves, OSC titles) removed, so `q` matches text across frame boundaries and across styling.
 * Each character remembers the frame that completed it, so a match reports the frames it spans.
 */
export interface TextMatch {
  /** Sequence of the frame holding the match's first character. */
  startSeq: number;
  /** Sequence of the frame holding its last character. */
  endSeq: number;
  /** The matched text and up to CONTEXT characters around it (escape sequences removed). */
  before: string;
  text: string;
  after: string;
  /** Index (in characters of the searchable text) just past the match. */
  endChar: number;
}

const CONTEXT = 40;

type EscState = 'text' | 'esc' | 'csi' | 'osc' | 'osc_esc' | 'str' | 'str_esc' | 'charset';

/** Incremental text extraction over a session's Output frames, then search. */
export class SearchableText {
  private readonly decoder = new TextDecoder('utf-8');
  private chars: string[] = [];
  private seqs: number[] = [];
  private state: EscState = 'text';

  /** Adds one Output frame's bytes. */
  push(seq: number, data: Uint8Array): void {
    const text = this.decoder.decode(data, { stream: true });
    for (const ch of text) this.feed(seq, ch);
  }

  get length(): number {
    return this.chars.length;
  }

  /**
   * Non-overlapping occurrences of `q`, oldest first, at most `limit`, starting at character
   * `fromChar` (a follower passes where its previous search stopped).
   */
  find(q: string, limit: number, fromChar = 0): TextMatch[] {
    const text = this.chars.join('');
    // Indices below are in code units of `text`; map them back to characters.
    const unitToChar: number[] = [];
    let fromUnit = text.length;
    for (let i = 0; i < this.chars.length; i++) {
      if (i === fromChar) fromUnit = unitToChar.length;
      for (let u = 0; u < this.chars[i]!.length; u++) unitToChar.push(i);
    }
    if (fromChar <= 0) fromUnit = 0;
    const out: TextMatch[] = [];
    for (let at = text.indexOf(q, fromUnit); at >= 0 && out.length < limit; at = text.indexOf(q, at + q.length)) {
      const first = unitToChar[at]!;
      const last = unitToChar[at + q.length - 1]!;
      out.push({
        startSeq: this.seqs[first]!,
        endSeq: this.seqs[last]!,
        before: this.chars.slice(Math.max(0, first - CONTEXT), first).join(''),
        text: text.slice(at, at + q.length),
        after: this.chars.slice(last + 1, last + 1 + CONTEXT).join(''),
        endChar: last + 1,
      });
    }
    return out;
  }

  /**
   * Drops all characters but the last `keep`, so a long search can run in pages (or polls) while
   * still matching across their boundaries; returns how many were dropped.
   */
  keepTail(keep: number): number {
    if (this.chars.length <= keep) return 0;
    const dropped = this.chars.length - keep;
    this.chars = this.chars.slice(dropped);
    this.seqs = this.seqs.slice(dropped);
    return dropped;
  }

  /** ECMA-48 shapes: CSI … final, OSC/DCS/APC/PM … BEL or ST, two-byte escapes, charset selects. */
  private feed(seq: number, ch: string): void {
    const c = ch.codePointAt(0)!;
    switch (this.state) {
      case 'text':
        if (c === 0x1b) this.state = 'esc';
        else if (c === 0x9b) this.state = 'csi';
        else if (c === 0x9d) this.state = 'osc';
        else if (c === 0x07 || c === 0x00)
          return; // BEL and NUL print nothing
        else {
          this.chars.push(ch);
          this.seqs.push(seq);
        }
        return;
      case 'esc':
        if (ch === '[') this.state = 'csi';
        else if (ch === ']') this.state = 'osc';
        else if (ch === 'P' || ch === '_' || ch === '^' || ch === 'X') this.state = 'str';
        else if (ch === '(' || ch === ')' || ch === '*' || ch === '+' || ch === '#' || ch === '%')
          this.state = 'charset';
        else this.state = 'text';
        return;
      case 'charset':
        this.state = 'text';
        return;
      case 'csi':
        if (c >= 0x40 && c <= 0x7e) this.state = 'text';
        return;
      case 'osc':
        if (c === 0x07) this.state = 'text';
        else if (c === 0x1b) this.state = 'osc_esc';
        return;
      case 'osc_esc':
        this.state = ch === '\\' ? 'text' : 'osc';
        return;
      case 'str':
        if (c === 0x1b) this.state = 'str_esc';
        return;
      case 'str_esc':
        this.state = ch === '\\' ? 'text' : 'str';
        return;
    }
  }
}
