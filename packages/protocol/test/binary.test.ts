import { decodeInputFrame, decodeOutputFrame, encodeInputFrame, encodeOutputFrame } from '@pty-ws/protocol';

describe('PW1O / PW1I codec', () => {
  it('round-trips an output frame with a 64-bit sequence', () => {
    const data = new TextEncoder().encode('hello\r\n');
    const frame = encodeOutputFrame(2 ** 40 + 7, 'stdout', data);
    expect(Array.from(frame.subarray(0, 4))).toEqual([0x50, 0x57, 0x31, 0x4f]);
    expect(frame[12]).toBe(1);
    const decoded = decodeOutputFrame(frame);
    expect(decoded.sequence).toBe(2 ** 40 + 7);
    expect(decoded.stream).toBe('stdout');
    expect(Buffer.from(decoded.data).toString()).toBe('hello\r\n');
  });

  it('rejects a frame with the wrong magic or too short', () => {
    expect(decodeInputFrame(new Uint8Array([0x50, 0x57, 0x31, 0x4f, 1]))).toBeNull();
    expect(decodeInputFrame(new Uint8Array([0x50, 0x57]))).toBeNull();
    expect(() => decodeOutputFrame(new Uint8Array(5))).toThrow(RangeError);
  });

  it('accepts an empty PW1I payload as zero bytes', () => {
    const decoded = decodeInputFrame(encodeInputFrame(new Uint8Array(0)));
    expect(decoded).not.toBeNull();
    expect(decoded!.length).toBe(0);
  });
});
