import fc from 'fast-check';
import { scrolledOutPrefix } from '../src/skipGate';

/** The rule byte by byte, as skipGate.ts first wrote it: the word-at-a-time scan must agree. */
function referencePrefix(chunks: readonly { data: Uint8Array }[], lineFeeds: number): number {
  const crBefore: number[] = [];
  let lastCr = -1;
  let base = 0;
  scan: for (const { data } of chunks) {
    for (let i = 0; i < data.length; i++) {
      const b = data[i] as number;
      if (b >= 0x20 && b <= 0x7e) continue;
      if (b === 0x0a) crBefore.push(lastCr);
      else if (b === 0x0d) lastCr = base + i;
      else if (b !== 0x09) break scan;
    }
    base += data.length;
  }
  if (crBefore.length < lineFeeds) return 0;
  const cr = crBefore[crBefore.length - lineFeeds] as number;
  return cr > 0 ? cr : 0;
}

/** Mostly printable text with line ends, now and then any other byte (the ones that stop a run). */
const byteArb = fc.oneof(
  { weight: 40, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 4, arbitrary: fc.constantFrom(0x0a, 0x0d, 0x09) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
);

/** `bytes` cut into chunks that are views at every alignment into larger buffers. */
function chunked(bytes: number[], cuts: number[], pads: number[]): { data: Uint8Array }[] {
  const out: { data: Uint8Array }[] = [];
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = Math.max(1, cuts[i % cuts.length] ?? 1);
    const pad = pads[i % pads.length] ?? 0;
    const part = bytes.slice(at, at + size);
    const backing = new Uint8Array(pad + part.length + 3).fill(0x41);
    backing.set(part, pad);
    out.push({ data: backing.subarray(pad, pad + part.length) });
    at += size;
  }
  return out;
}

describe('scrolledOutPrefix', () => {
  it('agrees with the byte-by-byte rule on random text, chunking and alignment', () => {
    fc.assert(
      fc.property(
        fc.array(byteArb, { maxLength: 600 }),
        fc.array(fc.integer({ min: 1, max: 70 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 12 }),
        (bytes, cuts, pads, lineFeeds) => {
          const chunks = chunked(bytes, cuts, pads);
          expect(scrolledOutPrefix(chunks, lineFeeds)).toBe(referencePrefix(chunks, lineFeeds));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('stops at an unsafe byte inside an otherwise printable word', () => {
    // Lines of 7 printable bytes + CR LF, so words straddle line ends; then ESC mid-word.
    const line = [...Buffer.from('abcdefg\r\n')];
    const bytes = [...line, ...line, ...line, ...line, 0x61, 0x1b, 0x62, 0x63, ...line, ...line];
    for (const unsafe of [0x1b, 0x7f, 0x80, 0xff, 0x00, 0x08, 0x1f]) {
      bytes[37] = unsafe;
      const chunks = [{ data: Uint8Array.from(bytes) }];
      expect(scrolledOutPrefix(chunks, 2)).toBe(referencePrefix(chunks, 2));
      expect(scrolledOutPrefix(chunks, 2)).toBe(25); // the CR of the 3rd line: 2 LFs follow before the stop
    }
  });
});
