import { createHash, randomBytes } from 'node:crypto';
import * as pty from 'node-pty';
import { writeToPty } from '../src/hosts/pty-write';

/** A raw-mode `cat` behind a real PTY: every byte written comes back as it was. */
function rawCat(): pty.IPty {
  return pty.spawn('/bin/sh', ['-c', 'stty raw -echo; echo READY; exec cat'], {
    cols: 80,
    rows: 24,
    encoding: null,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  } as pty.IPtyForkOptions);
}

function collect(term: pty.IPty): { bytes: () => Buffer; until: (n: number) => Promise<void> } {
  const chunks: Buffer[] = [];
  let size = 0;
  const waiters: Array<{ n: number; done: () => void }> = [];
  term.onData((d) => {
    chunks.push(d as unknown as Buffer);
    size += d.length;
    for (const w of waiters.splice(0))
      if (size >= w.n) w.done();
      else waiters.push(w);
  });
  return {
    bytes: () => Buffer.concat(chunks),
    until: (n) => (size >= n ? Promise.resolve() : new Promise<void>((done) => waiters.push({ n, done }))),
  };
}

async function ready(term: pty.IPty): Promise<ReturnType<typeof collect>> {
  const out = collect(term);
  await out.until(6); // READY\n (raw: no CR added)
  return out;
}

const queueOf = (term: pty.IPty): unknown[] =>
  (term as unknown as { _writeStream: { _writeQueue: unknown[] } })._writeStream._writeQueue;

describe('writeToPty', () => {
  let term: pty.IPty;
  beforeEach(() => {
    term = rawCat();
  });
  afterEach(() => term.kill());

  it('writes a keystroke on the spot, without node-pty’s thread-pool queue', async () => {
    const out = await ready(term);
    const queued = jest.spyOn(term, 'write');
    const before = out.bytes().length;
    writeToPty(term, Buffer.from('k'));
    // Taken by the kernel before writeToPty returned: nothing waits in node-pty's queue.
    expect(queued).not.toHaveBeenCalled();
    expect(queueOf(term)).toHaveLength(0);
    await out.until(before + 1);
    expect(out.bytes().subarray(before).toString()).toBe('k');
  });

  it('keeps keystrokes behind a paste that is still queued, in order', async () => {
    const out = await ready(term);
    const start = out.bytes().length;
    // Base64 so that no byte is a control character the raw tty could still act on.
    const paste = Buffer.from(randomBytes(96 * 1024).toString('base64'));
    writeToPty(term, paste); // larger than a direct write: queued
    const keys = 'after-the-paste';
    for (const k of keys) writeToPty(term, Buffer.from(k));
    const expected = Buffer.concat([paste, Buffer.from(keys)]);
    await out.until(start + expected.length);
    const got = out.bytes().subarray(start, start + expected.length);
    expect(createHash('sha256').update(got).digest('hex')).toBe(createHash('sha256').update(expected).digest('hex'));
  });

  it('hands what the kernel does not take to the queue, so nothing is lost', async () => {
    const out = await ready(term);
    const start = out.bytes().length;
    term.pause(); // cat's output is not read: its input backs up until the kernel refuses more
    const sent: Buffer[] = [];
    for (let i = 0; i < 400; i++) {
      const chunk = Buffer.from(`${String(i).padStart(4, '0')}:${'z'.repeat(1000)}\n`);
      sent.push(chunk);
      writeToPty(term, chunk);
    }
    // Some of it had to wait: the direct path gave way to the queue rather than dropping bytes.
    expect(queueOf(term).length).toBeGreaterThan(0);
    term.resume();
    const expected = Buffer.concat(sent);
    await out.until(start + expected.length);
    expect(
      out
        .bytes()
        .subarray(start, start + expected.length)
        .equals(expected),
    ).toBe(true);
  });
});
