import type { JetStreamManager, MsgRequest } from '@nats-io/jetstream';
import { decode } from './codec';
import type { DirectQuery, Gets } from './direct-gets';
import type { Located } from './subject-reader';

/** Leader gets one batch keeps in flight: these are JetStream API requests, queued by the server. */
const WINDOW = 32;

/**
 * The same reads as DirectGets, answered by the stream's leader only (`$JS.API.STREAM.MSG.GET`).
 *
 * With `allow_direct`, every replica of a replicated stream answers direct gets from its own
 * store, and nats-server 2.9 lets a follower answer whatever it has applied so far: one that is
 * behind, or one rebuilding a wiped store from its peers, gives an older newest message, or none.
 * The leader holds every acknowledged message, so what must not be stale (the writer's head, the
 * bounds a reader trusts to tell "not stored yet" from "trimmed") comes from here. Slower (a
 * JetStream API request each, one server) and unanswered while a leader is being elected.
 */
export class LeaderGets implements Gets {
  constructor(
    private readonly jsm: JetStreamManager,
    readonly stream: string,
  ) {}

  async get(query: DirectQuery): Promise<Located | undefined> {
    // `{ seq, next_by_subj }` is a 2.9 message-get request too; the client's type only lacks it.
    const m = await this.jsm.streams.getMessage(this.stream, query as MsgRequest);
    return m ? { streamSeq: m.seq, decoded: decode(m.header, m.data) } : undefined;
  }

  async getMany(queries: readonly DirectQuery[]): Promise<(Located | undefined)[]> {
    const results: (Located | undefined)[] = [];
    for (let i = 0; i < queries.length; i += WINDOW) {
      results.push(...(await Promise.all(queries.slice(i, i + WINDOW).map((q) => this.get(q)))));
    }
    return results;
  }
}
