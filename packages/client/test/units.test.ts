import { SUBPROTOCOL_BINARY, SUBPROTOCOL_JSON } from '@pty-ws/protocol';
import {
  attachUrl,
  backoffDelay,
  base64UrlEncode,
  Emitter,
  PtyClient,
  PtyWsError,
  RECONNECT_DEFAULTS,
  subprotocols,
  TaskStream,
} from '../src';

class TestEmitter extends Emitter<{ a: number; b: string }> {
  fire<K extends 'a' | 'b'>(k: K, v: { a: number; b: string }[K]): void {
    this.emit(k, v);
  }
}

describe('Emitter', () => {
  it('supports on/off/once/next with typed payloads', async () => {
    const e = new TestEmitter();
    const got: number[] = [];
    const off = e.on('a', (n) => got.push(n));
    e.once('a', (n) => got.push(n * 10));
    e.fire('a', 1);
    e.fire('a', 2);
    off();
    e.fire('a', 3);
    expect(got).toEqual([1, 10, 2]);
    const next = e.next('b');
    e.fire('b', 'x');
    await expect(next).resolves.toBe('x');
    expect(e.listenerCount('a')).toBe(0);
  });

  it('keeps calling listeners when one throws, and reports the error asynchronously', async () => {
    const e = new TestEmitter();
    const reported: unknown[] = [];
    const original = globalThis.queueMicrotask;
    globalThis.queueMicrotask = (cb) => {
      try {
        cb();
      } catch (err) {
        reported.push(err);
      }
    };
    try {
      const got: number[] = [];
      e.on('a', () => {
        throw new Error('boom');
      });
      e.on('a', (n) => got.push(n));
      e.fire('a', 7);
      expect(got).toEqual([7]);
      expect(reported).toEqual([new Error('boom')]);
    } finally {
      globalThis.queueMicrotask = original;
    }
  });
});

describe('options', () => {
  it('builds attach URLs from http(s) or ws(s) bases', () => {
    expect(attachUrl('https://h.example/', 'i 1', 's')).toBe('wss://h.example/agents/i%201/sessions/s/attach');
    expect(attachUrl('ws://h:8080/prefix', 'i', 's')).toBe('ws://h:8080/prefix/agents/i/sessions/s/attach');
  });

  it('encodes bearer tokens as unpadded base64url subprotocols', () => {
    expect(base64UrlEncode('\u00fb\u00ff?')).toBe(Buffer.from('\u00fb\u00ff?').toString('base64url'));
    expect(subprotocols('json', 'tok')).toEqual([SUBPROTOCOL_JSON, 'bearer.dG9r']);
    expect(subprotocols('binary')).toEqual([SUBPROTOCOL_BINARY]);
  });

  it('validates constructor options', () => {
    const url = 'ws://h/agents/a/sessions/b/attach';
    expect(() => new PtyClient({ url, token: 't', tokenTransport: 'header' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => new PtyClient({ url })).toThrow(/no WebSocket constructor/); // Node 20 has no global WebSocket
    expect(() => new PtyClient({ url: 'http://h/x', WebSocket: class {} as never })).toThrow(/ws:\/\//);
    expect(() => new PtyClient({ baseUrl: 'ws://h', WebSocket: class {} as never })).toThrow(PtyWsError);
  });

  it('computes exponential backoff with a ceiling and bounded jitter', () => {
    const r = { ...RECONNECT_DEFAULTS, initialDelayMs: 100, maxDelayMs: 1000, jitter: 0.5 };
    const mid = (): number => 0.5;
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, r, mid))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelay(1, r, () => 0)).toBe(50);
    expect(backoffDelay(1, r, () => 0.999999)).toBeLessThanOrEqual(150);
  });
});

describe('TaskStream', () => {
  const update = (seq: number, state: 'WORKING' | 'COMPLETED') => ({
    taskId: 't',
    task: { id: 't', context_id: 'c', status: { state, timestamp: '' } },
    delta: { task_id: 't', context_id: 'c', status: { state, timestamp: '' }, final: state === 'COMPLETED' },
    sequence: seq,
    final: state === 'COMPLETED',
  });

  it('gives every iterator the full history and drops duplicates by sequence', async () => {
    const s = new TaskStream('t', async () => undefined);
    expect(s.push(update(5, 'WORKING'))).toBe(true);
    expect(s.push(update(5, 'WORKING'))).toBe(false);
    const collect = async (): Promise<number[]> => {
      const seqs: number[] = [];
      for await (const u of s) seqs.push(u.sequence);
      return seqs;
    };
    const a = collect();
    s.push(update(7, 'COMPLETED'));
    expect(s.push(update(8, 'WORKING'))).toBe(false); // nothing after the final update
    await expect(a).resolves.toEqual([5, 7]);
    await expect(collect()).resolves.toEqual([5, 7]);
  });

  it('makes iterators throw when the stream fails', async () => {
    const s = new TaskStream('t', async () => undefined);
    const it = s[Symbol.asyncIterator]();
    const next = it.next();
    s.fail(new PtyWsError('CONNECTION_CLOSED', 'gone'));
    await expect(next).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(s.done()).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });
});
