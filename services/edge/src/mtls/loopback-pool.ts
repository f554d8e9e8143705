/**
 * Distinct relay names (127.1.0.1 … 127.254.255.254), one per open relayed connection: the mTLS
 * front writes it into the connection's PROXY v2 header, and the address uWS reports as proxied
 * says which TLS client a request belongs to. Never bound: the backend is a unix socket.
 */
export class LoopbackPool {
  private readonly inUse = new Set<string>();
  private next = 0;
  private static readonly SIZE = 254 * 256 * 256;

  acquire(): string | undefined {
    for (let tries = 0; tries < LoopbackPool.SIZE; tries++) {
      const i = this.next;
      this.next = (this.next + 1) % LoopbackPool.SIZE;
      const last = i & 255;
      if (last === 0 || last === 255) continue;
      const addr = `127.${1 + Math.floor(i / 65536)}.${(i >> 8) & 255}.${last}`;
      if (this.inUse.has(addr)) continue;
      this.inUse.add(addr);
      return addr;
    }
    return undefined;
  }

  release(addr: string): void {
    this.inUse.delete(addr);
  }

  get size(): number {
    return this.inUse.size;
  }
}
