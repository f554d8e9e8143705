/** A bare `ws` client for the floors (uWS publish, relay): no protocol, binary messages as they come. */
import WebSocket from 'ws';
import type { ByteChannel, EchoSession } from './channel';
import type { Cleanup } from './phase';

export async function openRawSocket(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  ws.binaryType = 'nodebuffer';
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return ws;
}

/** The socket as a byte pipe: writes go out as binary messages, every message is output. */
export function rawSocketChannel(ws: WebSocket): ByteChannel {
  let listener: (chunk: Buffer) => void = () => {};
  ws.on('message', (d: Buffer) => listener(d));
  return { write: (data) => ws.send(data), setListener: (l) => (listener = l) };
}

/** A socket as one echo session, closed by `close` or at the latest by the phase's cleanup. */
export async function rawSocketSession(url: string, c: Cleanup): Promise<EchoSession> {
  const ws = await openRawSocket(url);
  c.add(() => ws.terminate());
  return { channel: rawSocketChannel(ws), close: () => ws.terminate() };
}
