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

import { firstUnsafeByte } from './safeBytes';

const LF = 0x0a;
const CR = 0x0d;

/** How many LFs must follow the cut: enough to push every screen and scrollback line out. */
export function requiredLineFeeds(rows: number, scrollback: number): number {
  return 2 * rows + scrollback + 2;
}

/**
 * Bytes that may be dropped from the head of `chunks` (their concatenation): the offset of the CR
 * to resume at, or 0 when nothing may be dropped.
 *
 * Every byte of a flood passes through here. The run's end is found 16 bytes at a time
 * (safeBytes.ts); only then are the last `lineFeeds` LFs of the run and the CR before them looked
 * for, backwards from that end, so a cut costs a pass over its tail (~K lines), not a per-byte
 * bookkeeping of the whole run. Testing each byte in JavaScript, then four at a time, had been a
 * tenth of the event loop's time under a 50 MB stream.
 */
export function scrolledOutPrefix(chunks: readonly { data: Uint8Array }[], lineFeeds: number): number {
  // Where the run of safe bytes from the head ends: chunks[last].data[0, end) is its last piece.
  let last = chunks.length - 1;
  let end = chunks[last]?.data.length ?? 0;
  for (let c = 0; c < chunks.length; c++) {
    const data = (chunks[c] as { data: Uint8Array }).data;
    const unsafe = firstUnsafeByte(data);
    if (unsafe < data.length) {
      last = c;
      end = unsafe;
      break;
    }
  }
  // The lineFeeds-th LF before the run's end, then the last CR before that LF.
  const lf = findBack(chunks, last, end, LF, lineFeeds);
  if (!lf) return 0;
  const cr = findBack(chunks, lf.chunk, lf.at, CR, 1);
  if (!cr) return 0;
  let offset = cr.at;
  for (let c = 0; c < cr.chunk; c++) offset += (chunks[c] as { data: Uint8Array }).data.length;
  return offset;
}

/** The `count`-th `byte` before chunks[chunk].data[at], walking back through the chunks. */
function findBack(
  chunks: readonly { data: Uint8Array }[],
  chunk: number,
  at: number,
  byte: number,
  count: number,
): { chunk: number; at: number } | undefined {
  for (let c = chunk, before = at; c >= 0;) {
    const data = (chunks[c] as { data: Uint8Array }).data;
    const found = before > 0 ? data.lastIndexOf(byte, before - 1) : -1;
    if (found < 0) {
      c--;
      before = c >= 0 ? (chunks[c] as { data: Uint8Array }).data.length : 0;
      continue;
    }
    if (--count === 0) return { chunk: c, at: found };
    before = found;
  }
  return undefined;
}
