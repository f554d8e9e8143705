import WebSocket from 'ws';
import { PtyClient, type PtyClientOptions, type PtyClientEvents } from '../src';
import { FakeServer } from './fake-server';

/** A client against the fake server with fast reconnects; `ws` injected as in Node 20. */
export function clientFor(server: FakeServer, options: Partial<PtyClientOptions> = {}): PtyClient {
  return new PtyClient({
    url: server.url(),
    WebSocket,
    autoReconnect: { initialDelayMs: 10, maxDelayMs: 50, jitter: 0 },
    requestTimeoutMs: 2000,
    connectTimeoutMs: 2000,
    ...options,
  });
}

/** Records every event of the given types, in order, as `type` or `type:detail`. */
export function record<K extends keyof PtyClientEvents>(
  client: PtyClient,
  types: K[],
  detail: (type: K, ev: PtyClientEvents[K]) => string | undefined = () => undefined,
): string[] {
  const out: string[] = [];
  for (const t of types) {
    client.on(t, (ev) => {
      const d = detail(t, ev);
      out.push(d === undefined ? String(t) : `${String(t)}:${d}`);
    });
  }
  return out;
}

export const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');
