/**
 * fast-check generators for the flood-skip differential test (skip.test.ts): long runs of plain
 * text (the part skipGate.ts may drop) mixed with everything that could make dropping it wrong —
 * margins, alt screens, modes, tab stops, saved cursors, charsets, REP, unfinished escape
 * sequences and strings, UTF-8 (wide, combining, split across chunks, invalid) — cut into random
 * chunks with drains, resizes and snapshots in between.
 */
import fc from 'fast-check';

const CSI = '\x1b[';
const encoder = new TextEncoder();

/** A deterministic little generator, so a flood of hundreds of lines shrinks as one value. */
function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s >>> 8;
  };
}

const EOLS = ['\r\n', '\n', '\r', '\n\r', '\r\r\n'];
const LETTERS = 'abcdefXYZ 0123456789#~-_=+|';

const flood = fc
  .record({
    lines: fc.integer({ min: 0, max: 160 }),
    width: fc.integer({ min: 0, max: 70 }),
    eol: fc.integer({ min: -1, max: EOLS.length - 1 }),
    tabs: fc.boolean(),
    seed: fc.nat(),
  })
  .map(({ lines, width, eol, tabs, seed }) => {
    const next = lcg(seed);
    let out = '';
    for (let l = 0; l < lines; l++) {
      const len = next() % (width + 1);
      for (let i = 0; i < len; i++) out += tabs && next() % 9 === 0 ? '\t' : LETTERS[next() % LETTERS.length];
      // -1: a mix of every line ending.
      out += EOLS[eol >= 0 ? eol : next() % EOLS.length];
    }
    return encoder.encode(out);
  });

const pos = fc.integer({ min: 1, max: 12 });
const count = fc.integer({ min: 0, max: 6 });
const sequence = fc.oneof(
  fc.constantFrom('31', '1;44', '0', '7', '38;5;100', '48;2;1;2;3', '4;9').map((p) => `${CSI}${p}m`),
  fc.tuple(pos, pos).map(([a, b]) => `${CSI}${Math.min(a, b)};${Math.max(a, b)}r`),
  fc.tuple(pos, pos).map(([r, c]) => `${CSI}${r};${c}H`),
  fc
    .tuple(fc.constantFrom('A', 'B', 'C', 'D', 'G', 'd', 'S', 'T', 'L', 'M', '@', 'P', 'X', 'b', 'I', 'Z'), count)
    .map(([f, k]) => `${CSI}${k}${f}`),
  fc.constantFrom('J', 'K').chain((f) => fc.constantFrom(0, 1, 2).map((k) => `${CSI}${k}${f}`)),
  fc.constantFrom(
    `${CSI}r`,
    `${CSI}?1049h`,
    `${CSI}?1049l`,
    `${CSI}?47h`,
    `${CSI}?47l`,
    `${CSI}?7l`,
    `${CSI}?7h`,
    `${CSI}4h`,
    `${CSI}4l`,
    `${CSI}?6h`,
    `${CSI}?6l`,
    `${CSI}20h`,
    `${CSI}20l`,
    `${CSI}?45h`,
    `${CSI}?45l`,
    `${CSI}?25l`,
    `${CSI}g`,
    `${CSI}3g`,
    '\x1bH',
    '\x1b7',
    '\x1b8',
    '\x1bM',
    '\x1bD',
    '\x1bE',
    '\x1bc',
    '\x1b(0',
    '\x1b(B',
    '\x1b)0',
    '\x0e',
    '\x0f',
    '\b',
    '\x07',
    '\x0b',
    '\x0c',
    '\x7f',
    '\t',
    // Unfinished: the text that follows is a parameter or a string payload, not output.
    '\x1b]0;',
    '\x1b]2;title\x07',
    '\x1bP',
    '\x1b\\',
    CSI,
    `${CSI}3`,
    `${CSI}?`,
    '\x1b',
  ),
);
const unicode = fc
  .array(fc.constantFrom('中', '文', '😀', 'é', 'e\u0301', '€', '│', 'ｱ', 'a', ' ', '\u00a0', '\u200b'), {
    minLength: 1,
    maxLength: 20,
  })
  .map((chars) => chars.join(''));
const rawBytes = fc.constantFrom([0x9b], [0xc3], [0xe4, 0xb8], [0xf0, 0x9f, 0x98], [0xff], [0x80, 0x80]);

const segment = fc.oneof(
  { weight: 6, arbitrary: flood },
  { weight: 5, arbitrary: sequence.map((s) => encoder.encode(s)) },
  { weight: 2, arbitrary: unicode.map((s) => encoder.encode(s)) },
  { weight: 1, arbitrary: rawBytes.map((b) => Uint8Array.from(b)) },
);

/** What happens after a chunk is written. */
export type Pause =
  | { kind: 'none' }
  | { kind: 'immediate' }
  | { kind: 'timer' }
  | { kind: 'snapshot' }
  | { kind: 'resize'; cols: number; rows: number };

const pause: fc.Arbitrary<Pause> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'immediate' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'timer' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'snapshot' as const }) },
  {
    weight: 1,
    arbitrary: fc
      .record({ cols: fc.integer({ min: 4, max: 40 }), rows: fc.integer({ min: 2, max: 10 }) })
      .map((r) => ({ kind: 'resize' as const, ...r })),
  },
);

export interface FloodCase {
  cols: number;
  rows: number;
  scrollback: number;
  maxQueuedBytes: number | undefined;
  stream: Uint8Array;
  /** Chunk sizes (cycled) and what follows each chunk (cycled). */
  sizes: number[];
  pauses: Pause[];
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const floodCase: fc.Arbitrary<FloodCase> = fc.record({
  cols: fc.integer({ min: 4, max: 40 }),
  rows: fc.integer({ min: 2, max: 10 }),
  scrollback: fc.constantFrom(1, 2, 3, 7, 20, 100),
  maxQueuedBytes: fc.option(fc.integer({ min: 1, max: 3000 }), { nil: undefined }),
  stream: fc.array(segment, { minLength: 1, maxLength: 14 }).map(concat),
  sizes: fc.array(fc.integer({ min: 1, max: 2500 }), { minLength: 1, maxLength: 12 }),
  pauses: fc.array(pause, { minLength: 1, maxLength: 12 }),
});
