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
  /** Offset (in UTF-16 code units of the searchable text) just past the match. */
  endChar: number;
}

const CONTEXT = 40;

type EscState = 'text' | 'esc' | 'csi' | 'osc' | 'osc_esc' | 'str' | 'str_esc' | 'charset';

/** Code points that start or end an escape sequence, or print nothing, in the text state. */
const SPECIAL = /[\x00\x07\x1b\x9b\x9d]/g;

/**
 * Incremental text extraction over a session's Output frames, then search. The text is held as
 * one string plus one (offset, sequence) pair per frame that added to it, never an array per
 * character: a search over many megabytes keeps a bounded tail (`keepTail`) and costs about the
 * bytes it holds. Offsets ("chars" below) are UTF-16 code units of that string.
 */
export class SearchableText {
  private readonly decoder = new TextDecoder('utf-8');
  private text = '';
  /** Pieces added since `text` was last joined (joined on demand: one copy, not one per push). */
  private pieces: string[] = [];
  private piecesLength = 0;
  /** Where each contributing frame's text starts in `text`, and its sequence; ascending. */
  private runStarts: number[] = [];
  private runSeqs: number[] = [];
  private state: EscState = 'text';

  /** Adds one Output frame's bytes. */
  push(seq: number, data: Uint8Array): void {
    const decoded = this.decoder.decode(data, { stream: true });
    const before = this.length;
    this.extract(decoded);
    if (this.length > before) {
      this.runStarts.push(before);
      this.runSeqs.push(seq);
    }
  }

  get length(): number {
    return this.text.length + this.piecesLength;
  }

  /**
   * Non-overlapping occurrences of `q`, oldest first, at most `limit`, starting at `fromChar`
   * (a follower passes where its previous search stopped).
   */
  find(q: string, limit: number, fromChar = 0): TextMatch[] {
    const text = this.joined();
    const out: TextMatch[] = [];
    const from = Math.max(0, fromChar);
    for (let at = text.indexOf(q, from); at >= 0 && out.length < limit; at = text.indexOf(q, at + q.length)) {
      const end = at + q.length;
      out.push({
        startSeq: this.seqAt(at),
        endSeq: this.seqAt(end - 1),
        before: text.slice(wholeStart(text, at - CONTEXT), at),
        text: text.slice(at, end),
        after: text.slice(end, wholeEnd(text, end + CONTEXT)),
        endChar: end,
      });
    }
    return out;
  }

  /** The text from `from` to `to` (default: the end), escape sequences removed. */
  slice(from: number, to?: number): string {
    return this.joined().slice(from, to);
  }

  /** The sequence of the frame that added the character at `char`. */
  seqAt(char: number): number {
    let lo = 0;
    let hi = this.runStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.runStarts[mid]! <= char) lo = mid;
      else hi = mid - 1;
    }
    return this.runSeqs[lo] ?? 0;
  }

  /**
   * Drops all characters but the last `keep`, so a long search can run in pages (or polls) while
   * still matching across their boundaries; returns how many were dropped.
   */
  keepTail(keep: number): number {
    const text = this.joined();
    if (text.length <= keep) return 0;
    const dropped = text.length - keep;
    this.text = text.slice(dropped);
    // The run holding the new first character stays (starting at 0), the ones before it go.
    let first = 0;
    while (first + 1 < this.runStarts.length && this.runStarts[first + 1]! <= dropped) first++;
    this.runStarts = this.runStarts.slice(first).map((s) => Math.max(0, s - dropped));
    this.runSeqs = this.runSeqs.slice(first);
    return dropped;
  }

  private joined(): string {
    if (this.pieces.length > 0) {
      this.text += this.pieces.join('');
      this.pieces = [];
      this.piecesLength = 0;
    }
    return this.text;
  }

  private add(piece: string): void {
    if (piece === '') return;
    this.pieces.push(piece);
    this.piecesLength += piece.length;
  }

  /** Appends the printable text of `s`: runs of plain text are sliced, escapes stepped through. */
  private extract(s: string): void {
    let i = 0;
    while (i < s.length) {
      if (this.state === 'text') {
        SPECIAL.lastIndex = i;
        const m = SPECIAL.exec(s);
        const stop = m ? m.index : s.length;
        this.add(s.slice(i, stop));
        if (!m) return;
        i = stop;
      }
      const c = s.codePointAt(i)!;
      const ch = c > 0xffff ? s.slice(i, i + 2) : s[i]!;
      this.feed(ch, c);
      i += ch.length;
    }
  }

  /** ECMA-48 shapes: CSI … final, OSC/DCS/APC/PM … BEL or ST, two-byte escapes, charset selects. */
  private feed(ch: string, c: number): void {
    switch (this.state) {
      case 'text':
        if (c === 0x1b) this.state = 'esc';
        else if (c === 0x9b) this.state = 'csi';
        else if (c === 0x9d) this.state = 'osc';
        else if (c === 0x07 || c === 0x00)
          return; // BEL and NUL print nothing
        else this.add(ch);
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

/** `i` clamped to the text, moved off the second half of a surrogate pair. */
function wholeStart(text: string, i: number): number {
  if (i <= 0) return 0;
  return isLowSurrogate(text.charCodeAt(i)) ? i + 1 : i;
}

function wholeEnd(text: string, i: number): number {
  if (i >= text.length) return text.length;
  return isLowSurrogate(text.charCodeAt(i)) ? i - 1 : i;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
