import { createInbox, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { decode } from './codec';
import type { Located } from './subject-reader';

/**
 * One direct get (server 2.9 API): the subject's first message stored at or after stream position
 * `seq` (`next_by_subj`; from the start without `seq`), or its newest (`last_by_subj`).
 */
export type DirectQuery = { seq?: number; next_by_subj: string } | { last_by_subj: string };

/** Where a log's reads come from: direct gets (any replica) or the stream leader (leader-gets.ts). */
export interface Gets {
  readonly stream: string;
  /** The answers in query order (undefined: nothing of the subject at or after that position). */
  getMany(queries: readonly DirectQuery[]): Promise<(Located | undefined)[]>;
  get(query: DirectQuery): Promise<Located | undefined>;
}

/** A batch of direct gets got no answer for this long: the stream is not answering. */
export const DIRECT_IDLE_MS = 5000;
/**
 * Direct gets one batch keeps in flight: a 1000-entry replay in one round trip (at 256 it took
 * four, and each cost milliseconds on a busy 2-core machine); beyond, one more per answer.
 */
const WINDOW = 1024;

/** The stream did not answer a batch of direct gets in time (an outage: isNatsOutage says so). */
export class DirectGetTimeoutError extends Error {
  constructor(stream: string, waitedMs: number, unanswered: number) {
    super(`JetStream stream '${stream}' answered no direct get for ${waitedMs} ms (${unanswered} unanswered)`);
    this.name = 'DirectGetTimeoutError';
  }
}

/** The stream refused a direct get (not a "no message"): a bad request or no stream to answer. */
export class DirectGetError extends Error {
  constructor(
    stream: string,
    readonly status: number,
    description: string,
  ) {
    super(`JetStream direct get on '${stream}' failed: ${status} ${description}`);
    this.name = 'DirectGetError';
  }
}

interface Batch {
  results: (Located | undefined)[];
  unanswered: number;
  answeredAt: number;
  next: () => void;
  fail: (error: Error) => void;
}

/**
 * Many direct gets at once, pipelined on the shared connection with no consumer: nothing is
 * created on the server, so a reader that goes away, an edge that dies or a deadline leaves
 * nothing behind. Replies come to one wildcard inbox per log and find their batch by token; a
 * request's own promise, timer and inbox (what `jsm.direct.getMessage` sets up per call) cost
 * about three times the server's work for a 1000-entry replay.
 *
 * Server 2.9 answers one message per direct get (batch direct get is 2.11), so a range is as many
 * gets as it has entries; they are handled by the stream's own subscription, not the JetStream
 * API that consumer creation queues on.
 */
export class DirectGets implements Gets {
  private sub: Subscription | undefined;
  private inbox = '';
  private nextToken = 0;
  private readonly waiting = new Map<number, { batch: Batch; index: number }>();
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly nc: NatsConnection,
    readonly stream: string,
  ) {}

  /** The answers in query order (undefined: nothing of the subject at or after that position). */
  getMany(queries: readonly DirectQuery[]): Promise<(Located | undefined)[]> {
    if (queries.length === 0) return Promise.resolve([]);
    const inbox = this.listen();
    return new Promise((resolve, reject) => {
      const tokens: number[] = [];
      let sent = 0;
      let failed = false;
      const finish = (): void => {
        clearInterval(idle);
        for (const token of tokens) this.waiting.delete(token);
      };
      const batch: Batch = {
        results: new Array<Located | undefined>(queries.length).fill(undefined),
        unanswered: queries.length,
        answeredAt: performance.now(),
        next: () => {
          if (batch.unanswered === 0) {
            finish();
            resolve(batch.results);
          } else if (!failed && sent < queries.length) send(); // one answered, one more goes out
        },
        fail: (error) => {
          failed = true;
          finish();
          reject(error);
        },
      };
      const send = (): void => {
        const index = sent++;
        const q = queries[index] as DirectQuery;
        const token = this.nextToken++;
        tokens.push(token);
        this.waiting.set(token, { batch, index });
        const body = this.encoder.encode(JSON.stringify(q));
        try {
          this.nc.publish(`$JS.API.DIRECT.GET.${this.stream}`, body, { reply: `${inbox}.${token}` });
        } catch (error) {
          batch.fail(error instanceof Error ? error : new Error(String(error))); // the connection is closed
        }
      };
      // An idle deadline, not a total one: a long replay on a busy server is slow, not stuck.
      const idle = setInterval(() => {
        const waited = performance.now() - batch.answeredAt;
        if (waited >= DIRECT_IDLE_MS) {
          batch.fail(new DirectGetTimeoutError(this.stream, Math.round(waited), batch.unanswered));
        }
      }, DIRECT_IDLE_MS / 5);
      while (!failed && sent < Math.min(queries.length, WINDOW)) send();
    });
  }

  /** One direct get. */
  async get(query: DirectQuery): Promise<Located | undefined> {
    return (await this.getMany([query]))[0];
  }

  /** Stops listening; batches still waiting fail. */
  close(): void {
    this.sub?.unsubscribe();
    this.sub = undefined;
    this.failAll(new Error(`direct gets on '${this.stream}' closed`));
  }

  private listen(): string {
    if (this.sub && !this.sub.isClosed()) return this.inbox;
    this.inbox = createInbox();
    const sub = this.nc.subscribe(`${this.inbox}.*`, {
      callback: (error, msg) => (error ? this.failAll(error) : this.answer(msg)),
    });
    this.sub = sub;
    // The connection closed for good: nothing waiting will be answered.
    void sub.closed.then(() => {
      if (this.sub === sub) this.failAll(new Error(`the connection of direct gets on '${this.stream}' closed`));
    });
    return this.inbox;
  }

  private answer(msg: Msg): void {
    const token = Number(msg.subject.slice(this.inbox.length + 1));
    const waiting = this.waiting.get(token);
    if (!waiting) return; // its batch already failed
    this.waiting.delete(token);
    const { batch, index } = waiting;
    const status = msg.headers?.code ?? 0;
    if (status === 404) {
      batch.results[index] = undefined;
    } else if (status !== 0 && status !== 200) {
      return batch.fail(new DirectGetError(this.stream, status, msg.headers?.description ?? ''));
    } else {
      try {
        const streamSeq = Number(msg.headers?.get('Nats-Sequence'));
        batch.results[index] = { streamSeq, decoded: decode(msg.headers, msg.data) };
      } catch (error) {
        return batch.fail(error as Error);
      }
    }
    batch.unanswered--;
    batch.answeredAt = performance.now();
    batch.next();
  }

  private failAll(error: Error): void {
    const batches = new Set([...this.waiting.values()].map((w) => w.batch));
    this.waiting.clear();
    for (const batch of batches) batch.fail(error);
  }
}
