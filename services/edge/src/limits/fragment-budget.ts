/**
 * What unfinished inbound WebSocket messages may pin. uWS buffers a fragmented message (and a
 * frame whose payload is still arriving: it reserves the declared length up front) inside each
 * socket until the last byte arrives, with no hook to see or time it, and its idle timer restarts
 * on every byte received. So the budget is kept by sizing: each socket may hold at most
 * `uwsPayloadLimit` bytes (uWS closes it beyond that), and an edge admits only as many sockets as
 * the overall budget covers at that size. A principal's share follows from its connection cap
 * (PTYWS_MAX_CONNS_PER_PRINCIPAL × the per-socket limit).
 */

/** Headroom above PTYWS_MAX_FRAME_BYTES: a slightly larger message still gets Error + close 1009. */
export const FRAME_HEADROOM_BYTES = 64 * 1024;

/**
 * uWS's maxPayloadLength for a given PTYWS_MAX_FRAME_BYTES: messages up to the headroom over the
 * limit are read (and refused by pty-ws with a close frame); beyond it uWS drops the socket (1006).
 */
export function uwsPayloadLimit(maxFrameBytes: number): number {
  return maxFrameBytes + FRAME_HEADROOM_BYTES;
}

/** WebSockets an edge admits: PTYWS_MAX_SOCKETS, or fewer when their buffers could exceed the budget. */
export function socketsWithinBudget(limits: {
  maxSockets: number;
  maxFrameBytes: number;
  wsBufferBudget: number;
}): number {
  const byBudget = Math.floor(limits.wsBufferBudget / uwsPayloadLimit(limits.maxFrameBytes));
  return Math.max(1, Math.min(limits.maxSockets, byBudget));
}
