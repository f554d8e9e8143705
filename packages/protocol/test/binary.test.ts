import {
  allocOutputBytes,
  decodeInputFrame,
  decodeOutputFrame,
  encodeInputFrame,
  encodeOutputFrame,
  outputBytesPrefix,
} from '@pty-ws/protocol';

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

  it('frames bytes from allocOutputBytes in place, the same bytes as a copied frame', () => {
    const data = allocOutputBytes(6);
    data.set(new TextEncoder().encode('abcdef'));
    const copied = encodeOutputFrame(2 ** 33 + 5, 'stderr', new Uint8Array(data));
    const frame = encodeOutputFrame(2 ** 33 + 5, 'stderr', data);
    expect(frame.buffer).toBe(data.buffer); // no copy
    expect(Array.from(frame)).toEqual(Array.from(copied));
    expect(decodeOutputFrame(frame)).toMatchObject({ sequence: 2 ** 33 + 5, stream: 'stderr' });
    expect(Buffer.from(data).toString()).toBe('abcdef'); // the data itself untouched

    const prefix = outputBytesPrefix(data, 4);
    expect(encodeOutputFrame(9, 'stdout', prefix).buffer).toBe(data.buffer);
    const rest = data.subarray(4); // no header room in front of it: copied
    const restFrame = encodeOutputFrame(10, 'stdout', rest);
    expect(restFrame.buffer).not.toBe(data.buffer);
    expect(Buffer.from(decodeOutputFrame(restFrame).data).toString()).toBe('ef');
  });
});
