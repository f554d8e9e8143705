import { DiscardPolicy, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { OwnedStreamConfig } from './setup';
import type { FrameSubjects } from './subjects';

export interface JetStreamFrameLogOptions {
  /**
   * Subject prefix: `<prefix>.frames.<session>` (stored), `<prefix>.live.<session>` (delivered) and
   * `<prefix>.early.<session>` (small entries ahead of the store). Default `ptyws`.
   */
  prefix?: string;
  /** Stream name; default `PTYWS_FRAMES_<PREFIX>`, so deployments sharing a NATS account stay apart. */
  stream?: string;
  /** Default `file`: replay must survive a NATS restart. */
  storage?: 'file' | 'memory';
  /** Stream replicas on a clustered NATS (default 1); an existing stream is moved to this count. */
  replicas?: number;
  /**
   * Told about a subscriber that threw, or a message that could not be decoded. Delivery carries
   * on regardless. Defaults to console.error.
   */
  onSubscriberError?: (error: unknown, sessionId: string) => void;
  /**
   * Opens the connection appends go out on, with reconnecting OFF (see append-channel.ts); called
   * again after it drops. Given, a session's appends are pipelined (several acks outstanding);
   * without it each append waits for the one before.
   */
  appendConnection?: () => Promise<NatsConnection>;
}

export type ResolvedFrameLogOptions = Required<Omit<JetStreamFrameLogOptions, 'appendConnection'>>;

export function resolveFrameLogOptions(options: JetStreamFrameLogOptions): ResolvedFrameLogOptions {
  const prefix = options.prefix ?? 'ptyws';
  return {
    prefix,
    stream: options.stream ?? defaultFrameStreamName(prefix),
    storage: options.storage ?? 'file',
    replicas: options.replicas ?? 1,
    onSubscriberError:
      options.onSubscriberError ??
      ((error, sessionId) => console.error(`frame log subscriber of ${sessionId} failed`, error)),
  };
}

/** Stream names may not hold `.`, `*`, `>`, path separators or whitespace. */
export function defaultFrameStreamName(prefix: string): string {
  return `PTYWS_FRAMES_${prefix.toUpperCase().replace(/[^A-Z0-9_-]/g, '_')}`;
}

/**
 * Limits retention with no limits: entries go only through `trim` and `remove`, which the
 * runtime and janitor drive. Direct get must be on (bounds and point reads use it); republish
 * feeds subscribers only what the stream stored.
 */
export function frameStreamConfig(options: ResolvedFrameLogOptions, subjects: FrameSubjects): OwnedStreamConfig {
  return {
    name: options.stream,
    subjects: [subjects.allFrames],
    allow_direct: true,
    republish: subjects.republish,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    storage: options.storage === 'memory' ? StorageType.Memory : StorageType.File,
    num_replicas: options.replicas,
  };
}
