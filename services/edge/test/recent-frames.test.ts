import { RecentFrames } from '../src/ws/recent-frames';
import type { SerializedFrame } from '../src/ws/serialized-frame';

const frame = (seq: number, bytes = 10): SerializedFrame => {
  const json = `{"sequence":${seq}}`;
  return { seq, json, jsonBytes: Buffer.from(json), bytes };
};
const seqsIn = (r: RecentFrames, after: number, to: number): number[] => {
  const out: number[] = [];
  r.forEach(after, to, (f) => out.push(f.seq));
  return out;
};

describe('RecentFrames', () => {
  it('keeps the newest frames within the frame and byte bounds', () => {
    const r = new RecentFrames({ frames: 5, bytes: 1000 });
    for (let s = 1; s <= 8; s++) r.push(frame(s));
    expect(r.size).toBe(5);
    expect(r.get(3)).toBeUndefined();
    expect(r.get(4)?.seq).toBe(4);
    expect(r.get(9)).toBeUndefined();
    const byBytes = new RecentFrames({ frames: 100, bytes: 25 });
    for (let s = 1; s <= 4; s++) byBytes.push(frame(s));
    expect(seqsIn(byBytes, 0, 10)).toEqual([3, 4]);
    const huge = new RecentFrames({ frames: 100, bytes: 5 });
    huge.push(frame(1, 50)); // one frame over the budget is still kept: the newest always is
    expect(huge.get(1)?.seq).toBe(1);
  });

  it('says whether a range is fully kept and sends exactly that range', () => {
    const r = new RecentFrames({ frames: 5, bytes: 1000 });
    for (let s = 11; s <= 15; s++) r.push(frame(s));
    expect(r.covers(10, 15)).toBe(true);
    expect(r.covers(9, 15)).toBe(false); // 10 is gone
    expect(r.covers(12, 16)).toBe(false); // 16 not published yet
    expect(r.covers(15, 15)).toBe(true);
    expect(seqsIn(r, 12, 14)).toEqual([13, 14]);
    expect(seqsIn(r, 0, 12)).toEqual([11, 12]);
  });

  it('starts over when the feed jumps, so a kept range never has a hole', () => {
    const r = new RecentFrames({ frames: 10, bytes: 1000 });
    for (let s = 1; s <= 3; s++) r.push(frame(s));
    r.push(frame(7));
    expect(r.covers(2, 3)).toBe(false);
    expect(r.get(2)).toBeUndefined();
    expect(seqsIn(r, 0, 10)).toEqual([7]);
  });

  it('stays correct across its compactions', () => {
    const r = new RecentFrames({ frames: 3, bytes: 1_000_000 });
    for (let s = 1; s <= 5000; s++) r.push(frame(s));
    expect(r.size).toBe(3);
    expect(seqsIn(r, 0, 6000)).toEqual([4998, 4999, 5000]);
    expect(r.covers(4997, 5000)).toBe(true);
  });
});
