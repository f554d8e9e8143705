import { subjectToken } from '@pty-ws/ports';
const PREFIX = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** A session id as one NATS subject token and KV key (see subjectToken). */
export const sessionToken = subjectToken;

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
 *
 * A small Output entry (an echo) is also sent ahead on `<prefix>.early.<session>` (core NATS) as it is
 * appended, so subscribers can show it before the store and its republish have happened.
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

  early(sessionId: string): string {
    return `${this.prefix}.early.${sessionToken(sessionId)}`;
  }

  /** Core NATS: the owner gave the session's log up (LogCut), told beside the log. */
  cut(sessionId: string): string {
    return `${this.prefix}.cut.${sessionToken(sessionId)}`;
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
