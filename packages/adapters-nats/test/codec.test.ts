import { decodeOutputFrame, encodeOutputFrame } from '@pty-ws/protocol';
import { decode, encodeEntry } from '../src/codec';

describe('frame log codec', () => {
  it('copies an Output out of the read buffer into one the edge frames in place', () => {
    const data = Buffer.from('hello from the agent\r\n');
    const { headers, body } = encodeEntry({ type: 'output', seq: 7, id: 'o-7', ts: 1.5, stream: 'stdout', data });
    const readBuffer = Buffer.concat([Buffer.from('other bytes'), body]);
    const view = readBuffer.subarray(11);
    const decoded = decode(headers, view);
    if (decoded.kind !== 'entry' || decoded.entry.type !== 'output') throw new Error('not an output entry');
    const out = decoded.entry.data;
    expect(Buffer.from(out)).toEqual(data);
    readBuffer.fill(0); // the client reuses its read buffer: the entry keeps its own bytes
    expect(Buffer.from(out)).toEqual(data);
    const frame = encodeOutputFrame(7, 'stdout', out);
    expect(frame.buffer).toBe(out.buffer); // framed in place, not copied
    expect(decodeOutputFrame(frame)).toEqual({ sequence: 7, stream: 'stdout', data: new Uint8Array(data) });
  });
});
