import fc from 'fast-check';
import { firstUnsafeByte, firstUnsafeByteScalar, simdScanAvailable } from '../src/safeBytes';

/** Safe bytes (printable ASCII, HT, LF, CR) most of the time, now and then any byte. */
const byteArb = fc.oneof(
  { weight: 30, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 3, arbitrary: fc.constantFrom(0x09, 0x0a, 0x0d) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
);

describe('firstUnsafeByte', () => {
  it('runs the WebAssembly SIMD scan here, not the fallback (Node 20 has SIMD)', () => {
    expect(simdScanAvailable()).toBe(true);
  });

  it('finds every unsafe byte value in every lane, and passes every safe one', () => {
    for (let value = 0; value < 256; value++) {
      const safe = (value >= 0x20 && value <= 0x7e) || value === 0x09 || value === 0x0a || value === 0x0d;
      for (let at = 0; at < 48; at++) {
        const bytes = new Uint8Array(48).fill(0x61);
        bytes[at] = value;
        expect([value, at, firstUnsafeByte(bytes)]).toEqual([value, at, safe ? 48 : at]);
      }
    }
  });

  it('agrees with the byte-by-byte rule on random bytes, at every length and alignment', () => {
    fc.assert(
      fc.property(fc.array(byteArb, { maxLength: 300 }), fc.integer({ min: 0, max: 15 }), (bytes, pad) => {
        const backing = new Uint8Array(pad + bytes.length + 5).fill(0x00); // unsafe bytes around the view
        backing.set(bytes, pad);
        const view = backing.subarray(pad, pad + bytes.length);
        expect(firstUnsafeByte(view)).toBe(firstUnsafeByteScalar(view));
      }),
      { numRuns: 5000 },
    );
  });

  it('scans chunks longer than its 64 KiB window', () => {
    const big = new Uint8Array(200_000).fill(0x41);
    expect(firstUnsafeByte(big)).toBe(200_000);
    for (const at of [0, 65_535, 65_536, 65_537, 131_072, 199_999]) {
      big.fill(0x41);
      big[at] = 0x80;
      expect(firstUnsafeByte(big)).toBe(at);
    }
    expect(firstUnsafeByte(new Uint8Array(0))).toBe(0);
  });
});
