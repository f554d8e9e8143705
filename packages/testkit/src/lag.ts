import { readFileSync } from 'node:fs';
import type { TestClient } from './client';
import { is, sessionFrameOf, type Received } from './frames';

/**
 * A connection skipped forward as a slow consumer: waits (from frame index `from`) for its
 * PTY_OUTPUT_LAGGED notice, then returns the frame right after it, which the binding says is a
 * Keyframe. The caller asserts what it is.
 */
export async function frameAfterLag(
  client: TestClient,
  from: number,
  lagTimeoutMs: number,
  nextTimeoutMs = 5000,
): Promise<Received> {
  const lag = await client.waitFor((r) => sessionFrameOf(r, 'Error')?.code === 'PTY_OUTPUT_LAGGED', lagTimeoutMs, from);
  return client.waitFor(is.any(), nextTimeoutMs, client.frames.indexOf(lag) + 1);
}

/** The largest of `/proc/sys/net/ipv4/<name>`'s three sizes (min default max), or `fallback`. */
function tcpMemMax(name: string, fallback: number): number {
  try {
    const max = Number(readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/)[2]);
    return Number.isFinite(max) && max > 0 ? max : fallback;
  } catch {
    return fallback;
  }
}

/**
 * What the kernel may hold of one loopback connection's stream before the sender's own backlog
 * grows: the receive buffer at its autotuned maximum plus the send buffer's. A test that needs a
 * paused reader's server-side backlog to pass a bound must send more than this; it is ~10 MB on
 * some machines and ~36 MB on others (`tcp_rmem` max 32 MiB), and a reader that read at full
 * speed before it paused has let the receive buffer grow towards that maximum.
 */
export function loopbackBufferBytes(): number {
  return tcpMemMax('tcp_rmem', 6 * 1024 * 1024) + tcpMemMax('tcp_wmem', 4 * 1024 * 1024);
}
