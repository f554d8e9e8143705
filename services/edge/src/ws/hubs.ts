import type { HubOptions } from './session-hub';
import { SessionHub } from './session-hub';

/** The hubs of the sessions this edge currently serves: one per session, gone with its last socket. */
export class HubRegistry {
  private readonly hubs = new Map<string, SessionHub>();
  private readonly starting = new Map<string, Promise<SessionHub>>();

  constructor(private readonly opts: HubOptions) {}

  acquire(sessionId: string): Promise<SessionHub> {
    const existing = this.hubs.get(sessionId);
    if (existing) return Promise.resolve(existing);
    let start = this.starting.get(sessionId);
    if (!start) {
      start = this.start(sessionId);
      this.starting.set(sessionId, start);
    }
    return start;
  }

  private async start(sessionId: string): Promise<SessionHub> {
    // Subscribe before reading the head so no entry falls between the two: until the head is
    // known every entry counts as a repeat, and connections catch up from the log instead.
    const hub = new SessionHub(sessionId, Number.MAX_SAFE_INTEGER, this.opts);
    try {
      const bounds = await this.opts.log.bounds(sessionId);
      hub.head = bounds.lastSeq;
    } catch (err) {
      hub.dispose();
      throw err;
    } finally {
      this.starting.delete(sessionId);
    }
    this.hubs.set(sessionId, hub);
    return hub;
  }

  get(sessionId: string): SessionHub | undefined {
    return this.hubs.get(sessionId);
  }

  release(sessionId: string): void {
    const hub = this.hubs.get(sessionId);
    if (hub && hub.conns.size === 0) {
      hub.dispose();
      this.hubs.delete(sessionId);
    }
  }

  all(): SessionHub[] {
    return [...this.hubs.values()];
  }
}
