/**
 * The first byte of a chunk that is not "safe" in skipGate.ts's sense (printable ASCII 0x20-0x7E,
 * HT, LF, CR), 16 bytes at a time.
 *
 * Why WebAssembly SIMD rather than a plain loop: every byte of a flood passes this test, and it is
 * the skip path's largest cost after xterm.js itself. Measured on 2 shared cores, Node 20:
 * - the scan alone, best of 5, 1 MB in 64 KiB chunks: plain ASCII text 0.14-0.44 ms/MB here
 *   against 1.9-2.6 ms/MB for `firstUnsafeByteScalar` (0.5-0.9 for a 4-bytes-a-word JS variant);
 *   on mixed output (SGR colours, UTF-8 every few words) both stop within a line: 0.04 against
 *   0.0002 ms/MB, negligible next to the ~18 ms/MB xterm.js spends parsing such output;
 * - the mirror's CPU per MB with the skip on (loadtest/src/mirror-cost.ts, 20 MB per stream, run
 *   twice alternating with a build whose firstUnsafeByte returned the plain loop's answer):
 *   cat 2.5-3.2 against 3.7-4.8 ms/MB, yes 1.6-2.1 against 2.8-3.2, base64 1.9-2.3 against 3.2-3.3:
 *   the plain loop costs the mirror 40-60 % more on a flood.
 * No library on npm does this one comparison (Node's own SIMD helpers, `buffer.isAscii` and
 * `isUtf8`, let control characters through), so the module is written out below: ~100 bytes, with
 * the opcodes named, and checked against the plain loop (`firstUnsafeByteScalar`) by
 * test/safeBytes.test.ts. Where WebAssembly SIMD is missing, the plain loop runs.
 */

const HT = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** The byte-by-byte rule: what the SIMD scan must agree with. */
export function firstUnsafeByteScalar(data: Uint8Array): number {
  for (let i = 0; i < data.length; i++) {
    const b = data[i] as number;
    if (b > 0x7e || (b < 0x20 && b !== HT && b !== LF && b !== CR)) return i;
  }
  return data.length;
}

/** Index of the first unsafe byte of `data`, or `data.length` when every byte is safe. */
export function firstUnsafeByte(data: Uint8Array): number {
  const scanner = simdScanner();
  if (!scanner) return firstUnsafeByteScalar(data);
  // The module's memory is one 64 KiB page: longer chunks are scanned a window at a time.
  for (let at = 0; at < data.length; at += WINDOW) {
    const n = Math.min(WINDOW, data.length - at);
    scanner.window.set(n === data.length ? data : data.subarray(at, at + n));
    const u = scanner.scan(n);
    if (u < n) return at + u;
  }
  return data.length;
}

/** Whether the WebAssembly SIMD scan runs here (else the plain loop): a module that failed to build would fall back silently. */
export function simdScanAvailable(): boolean {
  return simdScanner() !== null;
}

const WINDOW = 65536;

interface Scanner {
  window: Uint8Array;
  scan: (length: number) => number;
}

let scanner: Scanner | null | undefined;

function simdScanner(): Scanner | null {
  if (scanner !== undefined) return scanner;
  scanner = null;
  try {
    const bytes = scanModule();
    if (typeof WebAssembly === 'object' && WebAssembly.validate(bytes)) {
      const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
      const { memory, scan } = instance.exports as { memory: WebAssembly.Memory; scan: (length: number) => number };
      scanner = { window: new Uint8Array(memory.buffer, 0, WINDOW), scan };
    }
  } catch {
    scanner = null; // no WebAssembly, or no SIMD: the plain loop
  }
  return scanner;
}

// Opcodes (WebAssembly core spec, and its SIMD proposal after the 0xFD prefix).
const BLOCK = 0x02;
const LOOP = 0x03;
const IF = 0x04;
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const RETURN = 0x0f;
const EMPTY_TYPE = 0x40;
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;
const I32_LOAD8_U = 0x2d;
const I32_CONST = 0x41;
const I32_EQZ = 0x45;
const I32_EQ = 0x46;
const I32_LT_U = 0x49;
const I32_GT_U = 0x4b;
const I32_GE_U = 0x4f;
const I32_CTZ = 0x68;
const I32_ADD = 0x6a;
const I32_AND = 0x71;
const I32_OR = 0x72;
const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00];
const I8X16_SPLAT = [SIMD, 0x0f];
const I8X16_EQ = [SIMD, 0x23];
const I8X16_LT_U = [SIMD, 0x26];
const I8X16_GT_U = [SIMD, 0x28];
const V128_ANDNOT = [SIMD, 0x4f];
const V128_OR = [SIMD, 0x50];
const V128_ANY_TRUE = [SIMD, 0x53];
const I8X16_BITMASK = [SIMD, 0x64];
const MEMARG_BYTE = [0x00, 0x00]; // align 1, offset 0
const I32 = 0x7f;
const V128 = 0x7b;

/** Signed LEB128, as i32.const takes it. */
function sleb(value: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    const done = (value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const i32 = (value: number): number[] => [I32_CONST, ...sleb(value)];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (text: string): number[] => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];

function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    const byte = value & 0x7f;
    value >>>= 7;
    out.push(value === 0 ? byte : byte | 0x80);
  } while (value !== 0);
  return out;
}

/**
 * (func (export "scan") (param $len i32) (result i32)): the index of the first unsafe byte of
 * memory[0, $len), or $len. Sixteen bytes a step: unsafe = (v <u 0x20 and not HT/LF/CR) or
 * v >u 0x7E; the first set lane of the step that has one is the answer. The last $len % 16 bytes
 * are tested one at a time.
 */
function scanModule(): Uint8Array<ArrayBuffer> {
  // Locals: 0 $len (param), 1 $i, 2 $end16, 3 $b (i32); 4 $v, 5 $bad, 6-10 the splatted constants.
  const [LEN, AT, END16, BYTE, V, BAD, C20, C7E, CHT, CLF, CCR] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const splat = (value: number, local: number): number[] => [...i32(value), ...I8X16_SPLAT, LOCAL_SET, local];
  const lane = (constant: number): number[] => [LOCAL_GET, V, LOCAL_GET, constant];
  const isByte = (value: number): number[] => [LOCAL_GET, BYTE, ...i32(value), I32_EQ];
  // prettier-ignore
  const body = [
    ...splat(0x20, C20),
    ...splat(0x7e, C7E),
    ...splat(HT, CHT),
    ...splat(LF, CLF),
    ...splat(CR, CCR),
    LOCAL_GET, LEN, ...i32(-16), I32_AND, LOCAL_SET, END16,
    BLOCK, EMPTY_TYPE,
    LOOP, EMPTY_TYPE,
    LOCAL_GET, AT, LOCAL_GET, END16, I32_GE_U, BR_IF, 1,
    LOCAL_GET, AT, ...V128_LOAD, ...MEMARG_BYTE, LOCAL_SET, V,
    ...lane(C20), ...I8X16_LT_U,
    ...lane(CHT), ...I8X16_EQ,
    ...lane(CLF), ...I8X16_EQ, ...V128_OR,
    ...lane(CCR), ...I8X16_EQ, ...V128_OR,
    ...V128_ANDNOT,
    ...lane(C7E), ...I8X16_GT_U, ...V128_OR,
    LOCAL_TEE, BAD, ...V128_ANY_TRUE,
    IF, EMPTY_TYPE,
    LOCAL_GET, AT, LOCAL_GET, BAD, ...I8X16_BITMASK, I32_CTZ, I32_ADD, RETURN,
    END,
    LOCAL_GET, AT, ...i32(16), I32_ADD, LOCAL_SET, AT,
    BR, 0,
    END,
    END,
    BLOCK, EMPTY_TYPE,
    LOOP, EMPTY_TYPE,
    LOCAL_GET, AT, LOCAL_GET, LEN, I32_GE_U, BR_IF, 1,
    LOCAL_GET, AT, I32_LOAD8_U, ...MEMARG_BYTE, LOCAL_SET, BYTE,
    LOCAL_GET, BYTE, ...i32(0x7e), I32_GT_U,
    LOCAL_GET, BYTE, ...i32(0x20), I32_LT_U,
    ...isByte(HT), ...isByte(LF), I32_OR, ...isByte(CR), I32_OR,
    I32_EQZ, I32_AND, I32_OR,
    IF, EMPTY_TYPE,
    LOCAL_GET, AT, RETURN,
    END,
    LOCAL_GET, AT, ...i32(1), I32_ADD, LOCAL_SET, AT,
    BR, 0,
    END,
    END,
    LOCAL_GET, LEN,
    END,
  ];
  const locals = [2, 3, I32, 7, V128];
  const code = [...uleb(locals.length + body.length), ...locals, ...body];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    ...section(1, [1, 0x60, 1, I32, 1, I32]), // type 0: (i32) -> i32
    ...section(3, [1, 0]), // one function, of type 0
    ...section(5, [1, 0x00, 1]), // one memory, at least one page
    ...section(7, [2, ...name('memory'), 0x02, 0, ...name('scan'), 0x00, 0]),
    ...section(10, [1, ...code]),
  ]);
}
