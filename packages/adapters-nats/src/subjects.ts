/** Ids made only of these characters are used verbatim: readable in `nats stream view` and `nats kv ls`. */
const VERBATIM = /^[A-Za-z0-9_-]+$/;
const PREFIX = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/**
 * A session id as one NATS subject token and KV key. Session ids are client-chosen strings, and
 * `.`, `*`, `>` or whitespace would split or widen a subject, so anything outside [A-Za-z0-9_-]
 * is base64url-encoded behind `=`. Injective: a verbatim token never contains `=`.
 */
export function sessionToken(sessionId: string): string {
  return VERBATIM.test(sessionId) ? sessionId : `=${Buffer.from(sessionId, 'utf8').toString('base64url')}`;
}

export function assertSubjectPrefix(prefix: string): void {
  if (!PREFIX.test(prefix)) {
    throw new RangeError(`NATS subject prefix must be dot-separated tokens of A-Z a-z 0-9 _ -, got '${prefix}'`);
  }
}

/**
 * The frame log's subjects. Writers publish to `<prefix>.frames.<session>`, which the stream
 * captures; the stream republishes each STORED message to `<prefix>.live.<session>`, which is what
 * subscribers listen on. Subscribing to the `frames` subject directly would also deliver publishes
 * the stream rejected (a lost sequence race): core NATS routes a message to subscribers whether or
 * not JetStream accepts it (checked against nats-server 2.9.10).
 */
export class FrameSubjects {
  constructor(readonly prefix: string) {
    assertSubjectPrefix(prefix);
  }

  frames(sessionId: string): string {
    return `${this.prefix}.frames.${sessionToken(sessionId)}`;
  }

  live(sessionId: string): string {
    return `${this.prefix}.live.${sessionToken(sessionId)}`;
  }

  /** What the stream captures. */
  get allFrames(): string {
    return `${this.prefix}.frames.*`;
  }

  /** The republish mapping (`>` keeps the session token). */
  get republish(): { src: string; dest: string } {
    return { src: `${this.prefix}.frames.>`, dest: `${this.prefix}.live.>` };
  }
}
