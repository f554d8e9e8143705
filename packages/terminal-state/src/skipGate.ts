/**
 * Where a flood's prefix provably cannot change what the terminal ends up showing.
 *
 * "Safe" bytes are printable ASCII (0x20-0x7E), LF, CR and HT: from the parser's ground state they
 * print or move the cursor, and change no mode, margin, charset, tab stop, SGR pen or saved cursor.
 * Everything else is unsafe (ESC, the other C0 controls incl. BS and BEL, DEL, and every byte
 * >= 0x80, so no UTF-8 sequence is ever cut or skipped).
 *
 * The rule: in a run of safe bytes that starts at the head of the queue, find a CR followed, still
 * inside the run, by at least `lineFeeds` LFs. Everything before that CR may be dropped; the CR is
 * kept, so parsing resumes in column 0 without a pending wrap in both the skipping and the full
 * parse. With `lineFeeds = 2·rows + scrollback + 2` and the cursor inside the scroll margins (see
 * skipState.ts), the kept LFs first move the cursor to the bottom margin (< rows of them) and then
 * scroll every line that existed at the cut, screen and scrollback, out of the buffer: what is
 * left was written by the kept bytes alone, from identical modes and pen. The differential test
 * (test/skip.test.ts) checks this claim against a terminal that parses everything.
 */

const LF = 0x0a;
const CR = 0x0d;
const HT = 0x09;

/** How many LFs must follow the cut: enough to push every screen and scrollback line out. */
export function requiredLineFeeds(rows: number, scrollback: number): number {
  return 2 * rows + scrollback + 2;
}

/**
 * Bytes that may be dropped from the head of `chunks` (their concatenation): the offset of the CR
 * to resume at, or 0 when nothing may be dropped.
 *
 * Every byte of a flood passes through here, so aligned 4-byte words of printable ASCII (almost
 * all of a `cat` of text) are passed over in one step: that made the scan 2.5× faster than testing
 * each byte, which had been a tenth of the event loop's time under a 50 MB stream.
 */
export function scrolledOutPrefix(chunks: readonly { data: Uint8Array }[], lineFeeds: number): number {
  // Ring of the last `lineFeeds` LFs, each holding the position of the last CR before it (-1: none).
  // When the run ends, the oldest entry belongs to the lineFeeds-th LF from the end.
  const ring = new Float64Array(lineFeeds);
  let seen = 0;
  let lastCr = -1;
  let base = 0;
  for (const { data } of chunks) {
    const n = data.length;
    const offset = data.byteOffset;
    const words = new Uint32Array(data.buffer, 0, data.buffer.byteLength >>> 2);
    for (let i = 0; i < n;) {
      if (((offset + i) & 3) === 0 && i + 4 <= n && printableWord(words[(offset + i) >>> 2] as number)) {
        i += 4;
        continue;
      }
      const b = data[i] as number;
      if (b < 0x20 || b > 0x7e) {
        if (b === LF) {
          ring[seen % lineFeeds] = lastCr;
          seen++;
        } else if (b === CR) {
          lastCr = base + i;
        } else if (b !== HT) {
          return cutAt(ring, seen, lineFeeds);
        }
      }
      i++;
    }
    base += n;
  }
  return cutAt(ring, seen, lineFeeds);
}

/**
 * True when all four bytes of `w` are printable ASCII (0x20-0x7E). The two terms are the classic
 * "some byte is less than n" and "some byte is greater than n" word tests, exact for n < 128.
 */
function printableWord(w: number): boolean {
  const below = (w - 0x20202020) & ~w;
  const above = (w + 0x01010101) | w;
  return ((below | above) & 0x80808080) === 0;
}

function cutAt(ring: Float64Array, seen: number, lineFeeds: number): number {
  if (seen < lineFeeds) return 0;
  const cr = ring[seen % lineFeeds] ?? -1;
  return cr > 0 ? cr : 0;
}
