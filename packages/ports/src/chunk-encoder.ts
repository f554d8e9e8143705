/**
 * Compresses framed transcript chunks (transcript-chunk-v2.ts) in one worker thread per process:
 * the event loop only frames the entries (one copy) and hands the buffer over. Brotli on the
 * libuv pool instead cost the event loop ~0.5 ms per 256 KiB chunk (stream setup, the encoder's
 * native allocations and the garbage collections they trigger) on a 50 MB `cat`. Requests are
 * answered in any order, matched by number; the worker keeps the process up only while a request
 * is pending (so a chunk being flushed at shutdown is not lost, and an idle worker holds nothing).
 * No compiled worker script (ts-jest on the sources without a build), or a dead worker: the
 * caller compresses on the pool.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export type CompressReply = { req: number; data: Uint8Array } | { req: number; error: string };

let worker: Worker | undefined;
let unavailable = false;
let nextReq = 0;
const waiting = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void }>();

function script(): string | undefined {
  // Compiled: next to this file. Under ts-jest this is the .ts source: use the build's, if any.
  return [join(__dirname, 'chunk-encoder-worker.js'), join(__dirname, '..', 'dist', 'chunk-encoder-worker.js')].find(
    (p) => existsSync(p),
  );
}

function start(): Worker | undefined {
  if (worker || unavailable) return worker;
  const file = script();
  if (!file) {
    unavailable = true;
    return undefined;
  }
  // Small heaps: the worker holds one chunk (at most a few MB) at a time and its own garbage
  // would otherwise grow the process's RSS under a flood.
  const w = new Worker(file, { resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 } });
  w.on('message', (m: CompressReply) => {
    const p = waiting.get(m.req);
    if (!p) return;
    waiting.delete(m.req);
    if (waiting.size === 0) w.unref();
    // A transferred Uint8Array: view it as a Buffer without copying.
    if ('data' in m) p.resolve(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength));
    else p.reject(new Error(m.error));
  });
  const fail = (err: Error): void => {
    if (worker === w) worker = undefined; // the next chunk starts a new one
    for (const p of waiting.values()) p.reject(err);
    waiting.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`transcript chunk encoder exited (${code})`)));
  // After the listeners: adding a 'message' listener refs the worker's port again.
  w.unref();
  worker = w;
  return w;
}

/**
 * Brotli (quality 0) of `framed` in the worker, or undefined: then the caller compresses it.
 * `framed` must own its ArrayBuffer (Buffer.allocUnsafeSlow): it is transferred, not copied.
 */
export function compressOffThread(framed: Buffer): Promise<Buffer> | undefined {
  const w = start();
  if (!w) return undefined;
  const req = ++nextReq;
  return new Promise((resolve, reject) => {
    if (waiting.size === 0) w.ref();
    waiting.set(req, { resolve, reject });
    w.postMessage({ req, framed }, [framed.buffer as ArrayBuffer]);
  });
}
