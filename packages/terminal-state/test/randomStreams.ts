/**
 * fast-check generators of terminal output: text (incl. wide, combining, emoji), SGR, cursor
 * movement, erasing, editing, scrolling, margins, modes, saved cursor, charsets and alt screens.
 */
import fc from 'fast-check';

const CSI = '\x1b[';

const text = fc
  .array(fc.constantFrom('a', 'b', 'Z', ' ', '#', 'q', 'x', '中', '文', '😀', 'é', 'e\u0301', '€', '│', '─', 'ｱ'), {
    minLength: 1,
    maxLength: 30,
  })
  .map((chars) => chars.join(''));

const color = fc.oneof(
  fc.integer({ min: 0, max: 7 }).map((n) => `3${n}`),
  fc.integer({ min: 0, max: 7 }).map((n) => `9${n}`),
  fc.integer({ min: 0, max: 7 }).map((n) => `4${n}`),
  fc.integer({ min: 0, max: 7 }).map((n) => `10${n}`),
  fc.integer({ min: 0, max: 255 }).map((n) => `38;5;${n}`),
  fc.integer({ min: 0, max: 255 }).map((n) => `48;5;${n}`),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([r, g, b]) => `38;2;${r};${g};${b}`),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([r, g, b]) => `48;2;${r};${g};${b}`),
  fc.integer({ min: 0, max: 255 }).map((n) => `58;5;${n}`),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([r, g, b]) => `58:2::${r}:${g}:${b}`),
  fc.constantFrom('39', '49', '59'),
);
const flag = fc.constantFrom(
  ...['0', '1', '2', '3', '4', '5', '7', '8', '9', '53', '22', '23', '24', '27', '29', '55'],
  ...['4:0', '4:1', '4:2', '4:3', '4:4', '4:5'],
);
const sgr = fc.array(fc.oneof(color, flag), { minLength: 1, maxLength: 4 }).map((p) => `${CSI}${p.join(';')}m`);

const n = fc.integer({ min: 0, max: 12 });
const pos = fc.integer({ min: 1, max: 30 });
const control = fc.oneof(
  fc.tuple(pos, pos).map(([r, c]) => `${CSI}${r};${c}H`),
  fc
    .tuple(fc.constantFrom('A', 'B', 'C', 'D', 'E', 'F', 'G', 'd', '@', 'P', 'X', 'L', 'M', 'S', 'T'), n)
    .map(([f, k]) => `${CSI}${k}${f}`),
  fc.constantFrom('J', 'K').chain((f) => fc.constantFrom(0, 1, 2).map((k) => `${CSI}${k}${f}`)),
  fc.constantFrom('\r', '\n', '\r\n', '\b', '\t', '\x1bM', '\x1bD', '\x1bE', '\x1b7', '\x1b8'),
  fc.tuple(pos, pos).map(([a, b]) => `${CSI}${Math.min(a, b)};${Math.max(a, b)}r`),
  fc.constantFrom(`${CSI}r`, `${CSI}?6h`, `${CSI}?6l`, `${CSI}?7l`, `${CSI}?7h`, `${CSI}4h`, `${CSI}4l`),
  fc.constantFrom(`${CSI}?1049h`, `${CSI}?1049l`, `${CSI}?47h`, `${CSI}?47l`, `${CSI}?1047h`, `${CSI}?1047l`),
  fc.constantFrom(`${CSI}?25l`, `${CSI}?25h`, `${CSI}?1h`, `${CSI}?2004h`, `${CSI}?1002h`, `${CSI}?1006h`, `${CSI}3 q`),
  fc.constantFrom('\x1b(0', '\x1b(B', '\x1b)0', '\x0e', '\x0f'),
);

/** A chunk of output; several of them make a session. */
export const outputChunk = fc
  .array(fc.oneof({ weight: 4, arbitrary: text }, { weight: 2, arbitrary: sgr }, { weight: 4, arbitrary: control }), {
    minLength: 1,
    maxLength: 25,
  })
  .map((parts) => parts.join(''));

export const session = fc.array(outputChunk, { minLength: 1, maxLength: 8 });
