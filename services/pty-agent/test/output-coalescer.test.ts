import { encodeOutputFrame } from '@pty-ws/protocol';
import { OutputCoalescer } from '../src/session/output-coalescer';

/**
 * Latency-first framing: output after a quiet period is not held for the window, only output that
 * keeps coming is. The window here is 10 s, so "emitted by the next turn" can only mean "not held".
 */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function collect(maxDelayMs: number, maxBytes: number): { frames: Uint8Array[]; c: OutputCoalescer } {
  const frames: Uint8Array[] = [];
  return { frames, c: new OutputCoalescer(maxDelayMs, maxBytes, (d) => frames.push(d)) };
}

describe('OutputCoalescer', () => {
  it('sends output that follows a quiet period in the same turn, whatever the window', async () => {
    const { frames, c } = collect(10_000, 32_768);
    c.push(Buffer.from('a'));
    c.push(Buffer.from('b')); // read in the same turn: joins the frame
    expect(frames).toHaveLength(0);
    await nextTurn();
    expect(frames.map((f) => Buffer.from(f).toString())).toEqual(['ab']);
    c.flush();
  });

  it('keeps one-byte echoes unmerged at the default window: small frames barely open it', async () => {
    const { frames, c } = collect(5, 32_768);
    for (const ch of 'xyz') {
      c.push(Buffer.from(ch));
      await nextTurn();
    }
    expect(frames.map((f) => Buffer.from(f).toString())).toEqual(['x', 'y', 'z']);
  });

  it('coalesces while output keeps coming: after a large frame the window opens', async () => {
    const { frames, c } = collect(10_000, 1024);
    c.push(Buffer.alloc(1024, 0x61)); // at the size cap: flushed at once
    expect(frames).toHaveLength(1);
    c.push(Buffer.from('b'));
    c.push(Buffer.from('c'));
    await nextTurn();
    expect(frames).toHaveLength(1); // held: the stream is busy
    c.flush();
    expect(frames.map((f) => Buffer.from(f).toString())).toEqual(['a'.repeat(1024), 'bc']);
  });

  it('cuts frames at the size cap', () => {
    const { frames, c } = collect(5, 4);
    c.push(Buffer.from('abc'));
    c.push(Buffer.from('defghij'));
    expect(frames.map((f) => Buffer.from(f).toString())).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('with a window of 0 sends every chunk at once', () => {
    const { frames, c } = collect(0, 1024);
    c.push(Buffer.from('a'));
    expect(frames).toHaveLength(1);
  });

  it('merges into bytes the binary frame is built around without a copy (the first cut too)', () => {
    const { frames, c } = collect(5, 4);
    c.push(Buffer.from('abc'));
    c.push(Buffer.from('defghij'));
    const [first, second] = frames;
    expect(encodeOutputFrame(1, 'stdout', first!).buffer).toBe(first!.buffer);
    expect(encodeOutputFrame(2, 'stdout', second!).buffer).not.toBe(second!.buffer);
    expect(Buffer.from(first!).toString()).toBe('abcd');
  });
});
