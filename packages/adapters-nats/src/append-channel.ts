import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

/** One NATS connection appends go out on, for as long as it stays up. */
export interface Channel {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
}

/**
 * The connection pipelined appends travel on. It must never reconnect (open it with
 * `reconnect: false`): one connection's messages are processed by the server in order, so when
 * it drops, what the stream stored is a prefix of what was sent on it. A reconnecting client
 * would instead send, after the restart, publishes it buffered while the ones before them were
 * lost with the old socket, and the log would get a hole. After a drop the next append opens a
 * fresh channel; appends made meanwhile fail and are retried by the sequencer.
 */
export class AppendChannel {
  private channel: Channel | undefined;
  private opening: Promise<Channel> | undefined;
  private closed = false;

  constructor(private readonly connect: () => Promise<NatsConnection>) {}

  /** The channel if it is open now (synchronous: pipelining decides in the caller's tick). */
  current(): Channel | undefined {
    const c = this.channel;
    if (c && c.nc.isClosed()) this.channel = undefined;
    return this.channel;
  }

  async open(): Promise<Channel> {
    const c = this.current();
    if (c) return c;
    if (this.closed) throw new Error('frame log append channel is closed');
    this.opening ??= this.connect().then(
      (nc) => {
        this.opening = undefined;
        const channel: Channel = { nc, js: jetstream(nc) };
        if (this.closed) {
          void nc.close();
          throw new Error('frame log append channel is closed');
        }
        this.channel = channel;
        void nc.closed().then(() => {
          if (this.channel === channel) this.channel = undefined;
        });
        return channel;
      },
      (error: unknown) => {
        this.opening = undefined;
        throw error;
      },
    );
    return this.opening;
  }

  /** Lets in-flight appends finish (drain), then stops opening channels. */
  async close(): Promise<void> {
    this.closed = true;
    const c = this.channel;
    this.channel = undefined;
    if (c && !c.nc.isClosed()) await c.nc.drain().catch(() => undefined);
  }
}
