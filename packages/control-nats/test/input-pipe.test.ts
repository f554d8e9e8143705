import { InputPipe, NotDeliveredError } from '../src/input-pipe';

const bytes = (s: string): Uint8Array => Buffer.from(s, 'utf8');
const text = (b: Uint8Array): string => Buffer.from(b).toString('utf8');

describe('InputPipe', () => {
  it('keeps order, joins what is typed while a batch is in flight, and settles every push', async () => {
    const sent: string[] = [];
    let release: () => void = () => {};
    const pipe = new InputPipe(
      (batch) => {
        sent.push(text(batch));
        return new Promise<void>((r) => (release = r));
      },
      { retryWindowMs: 1000, maxBatchBytes: 1024 },
    );
    const first = pipe.push(bytes('a'));
    const later = [pipe.push(bytes('b')), pipe.push(bytes('c')), pipe.push(bytes('d'))];
    expect(sent).toEqual(['a']);
    release();
    await first;
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual(['a', 'bcd']);
    release();
    await Promise.all(later);
    expect(pipe.idle).toBe(true);
  });

  it('splits a flood into batches no larger than maxBatchBytes', async () => {
    const sent: string[] = [];
    const pipe = new InputPipe(
      async (batch) => {
        sent.push(text(batch));
      },
      { retryWindowMs: 1000, maxBatchBytes: 4 },
    );
    await Promise.all(['ab', 'cd', 'ef', 'ghijk', 'l'].map((s) => pipe.push(bytes(s))));
    expect(sent.join('')).toBe('abcdefghijkl');
    expect(sent[0]).toBe('ab');
    expect(sent).toEqual(['ab', 'cdef', 'ghijk', 'l']);
  });

  it('offers a batch again while nobody is subscribed, then delivers it once', async () => {
    const delivered: string[] = [];
    let refusals = 3;
    const pipe = new InputPipe(
      async (batch) => {
        if (refusals-- > 0) throw new NotDeliveredError('no agent is subscribed');
        delivered.push(text(batch));
      },
      { retryWindowMs: 5000, maxBatchBytes: 1024 },
    );
    await pipe.push(bytes('ls\n'));
    expect(delivered).toEqual(['ls\n']);
  });

  it('gives up after the retry window with a binding error, and keeps serving later input', async () => {
    let up = false;
    const delivered: string[] = [];
    const pipe = new InputPipe(
      async (batch) => {
        if (!up) throw new NotDeliveredError('no agent is subscribed');
        delivered.push(text(batch));
      },
      { retryWindowMs: 100, maxBatchBytes: 1024 },
    );
    await expect(pipe.push(bytes('lost'))).rejects.toMatchObject({ code: 'INTERNAL' });
    up = true;
    await pipe.push(bytes('next'));
    expect(delivered).toEqual(['next']);
  });

  it('never sends again after a failure that may have been delivered (a timeout)', async () => {
    let calls = 0;
    const pipe = new InputPipe(
      async () => {
        calls++;
        throw new Error('timeout');
      },
      { retryWindowMs: 5000, maxBatchBytes: 1024 },
    );
    await expect(pipe.push(bytes('rm -rf build\n'))).rejects.toThrow('timeout');
    expect(calls).toBe(1);
  });
});
