/** An OSC 133 shell-integration mark: A prompt start, B input start, C command start, D command end. */
export interface ShellMark {
  kind: 'A' | 'B' | 'C' | 'D';
  /** D carries the exit status; absent when the shell gave none. */
  exitCode?: number;
}

export type MarkSegment = { text: Buffer } | { mark: ShellMark };

const START = '\x1b]133;';
/** Longer than any mark; an unterminated "mark" this long is output, not a mark. */
const MAX_MARK = 64;

/**
 * Splits a PTY byte stream into text and OSC 133 marks. Chunks may end mid-sequence, so a
 * possibly incomplete mark at the end of a chunk is held back until the next one decides it.
 * Bytes are handled as latin1 so offsets are byte offsets.
 */
export class ShellMarkParser {
  private carry = '';

  push(data: Uint8Array): MarkSegment[] {
    const s = this.carry + Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
    this.carry = '';
    const out: MarkSegment[] = [];
    let pos = 0;
    for (;;) {
      const at = s.indexOf(START, pos);
      if (at < 0) {
        // Hold back a tail that could be the beginning of START.
        let keep = 0;
        for (let n = Math.min(START.length - 1, s.length - pos); n > 0; n--) {
          if (START.startsWith(s.slice(s.length - n))) {
            keep = n;
            break;
          }
        }
        this.text(out, s.slice(pos, s.length - keep));
        this.carry = s.slice(s.length - keep);
        return out;
      }
      this.text(out, s.slice(pos, at));
      const body = at + START.length;
      const bel = s.indexOf('\x07', body);
      const st = s.indexOf('\x1b\\', body);
      const end = bel < 0 ? st : st < 0 ? bel : Math.min(bel, st);
      if (end < 0) {
        if (s.length - at <= MAX_MARK) {
          this.carry = s.slice(at);
          return out;
        }
        this.text(out, s.slice(at, body)); // not a mark after all
        pos = body;
        continue;
      }
      const mark = parseMark(s.slice(body, end));
      if (mark) out.push({ mark });
      pos = end + (end === bel ? 1 : 2);
    }
  }

  private text(out: MarkSegment[], s: string): void {
    if (s.length > 0) out.push({ text: Buffer.from(s, 'latin1') });
  }
}

function parseMark(body: string): ShellMark | undefined {
  const [kind, arg] = body.split(';');
  if (kind !== 'A' && kind !== 'B' && kind !== 'C' && kind !== 'D') return undefined;
  if (kind === 'D' && arg !== undefined && /^\d+$/.test(arg)) return { kind, exitCode: Number(arg) };
  return { kind };
}
