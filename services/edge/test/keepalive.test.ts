import { ManualClock } from '@pty-ws/testkit';
import { advance, newConn, type Conn } from '../src/ws/connection';
import { Keepalive } from '../src/ws/keepalive';

/** Keepalive rounds on a manual clock: a peer that stops answering pings is reaped, one that answers is not. */
const PING_MS = 1000;
const PONG_TIMEOUT_MS = 2500;

function conn(clientId: string): Conn & { pings: number } {
  const c = Object.assign(
    newConn({
      clientId,
      instanceId: 'i',
      sessionId: 's',
      principal: { id: 'p', scopes: new Set(['pty:observe']) },
      binary: false,
      remoteAddress: '127.0.0.1',
    }),
    { pings: 0 },
  );
  c.ws = { ping: () => c.pings++ } as unknown as Conn['ws'];
  advance(c, 'ready');
  return c;
}

/** Keepalive over `conns` on a manual clock; `stale` lists whom it reaped. */
function keepaliveOf(...conns: Conn[]) {
  const clock = new ManualClock();
  const stale: string[] = [];
  const keepalive = new Keepalive({
    conns: () => conns,
    pingIntervalMs: PING_MS,
    pongTimeoutMs: PONG_TIMEOUT_MS,
    onStale: (c) => stale.push(c.clientId),
    clock,
  });
  return { clock, stale, keepalive };
}

/** The reap's last check waits for pending I/O (setImmediate): let it run. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('keepalive', () => {
  it('pings every interval and reaps only the peer whose ping went unanswered past the timeout', async () => {
    const answering = conn('answering');
    const silent = conn('silent');
    const { clock, stale, keepalive } = keepaliveOf(answering, silent);
    try {
      // The silent peer's first ping goes out at 1 s: at 3 s it is 2 s old, within the timeout.
      for (let round = 1; round <= 3; round++) {
        clock.advance(PING_MS);
        keepalive.pong(answering);
        await nextTurn();
      }
      expect(stale).toEqual([]);
      expect(silent.pings).toBe(3);
      clock.advance(PING_MS); // 4 s: 3 s unanswered, past the 2.5 s timeout
      keepalive.pong(answering);
      await nextTurn();
      expect(stale).toEqual(['silent']);
      expect(answering.pings).toBe(4);
    } finally {
      keepalive.dispose();
    }
  });

  it('spares a peer whose pong was read between the round and the reap', async () => {
    const late = conn('late');
    const { clock, stale, keepalive } = keepaliveOf(late);
    try {
      clock.advance(4 * PING_MS); // an event-loop stall: no pong was processed meanwhile
      keepalive.pong(late); // …and it was waiting in the socket: read before the reap's check
      await nextTurn();
      expect(stale).toEqual([]);
    } finally {
      keepalive.dispose();
    }
  });
});
