/** The transcript chunk compressor thread (chunk-encoder.ts): brotli off the event loop. */
import { parentPort } from 'node:worker_threads';
import type { CompressReply } from './chunk-encoder';
import { compressFramedSync } from './transcript-chunk-v2';

const port = parentPort;
if (!port) throw new Error('chunk-encoder-worker.js runs as a worker thread only');
port.on('message', ({ req, framed }: { req: number; framed: Uint8Array }) => {
  let reply: CompressReply;
  try {
    reply = { req, data: compressFramedSync(framed) };
  } catch (err) {
    reply = { req, error: (err as Error).message };
  }
  // The result moves to the main thread without a copy, unless it sits in Node's shared buffer
  // pool (small results): transferring that would detach the pool under later buffers.
  const transfer: ArrayBuffer[] = [];
  if ('data' in reply) {
    const d = reply.data;
    if (d.byteOffset === 0 && d.byteLength === d.buffer.byteLength) transfer.push(d.buffer as ArrayBuffer);
  }
  port.postMessage(reply, transfer);
});
