import { BindingError, type OutputStream } from '@pty-ws/protocol';

export type TranscriptFormat = 'json' | 'asciicast';

/** `GET /api/v1/sessions/{id}/transcript` parameters after validation. */
export interface TranscriptQuery {
  /** First sequence wanted (inclusive); default: the oldest available. */
  fromSeq?: number;
  /** Last sequence wanted (inclusive); default: the newest. */
  toSeq?: number;
  /** Only Output frames of these streams (events are left out); default: every frame. */
  streams?: ReadonlySet<OutputStream>;
  /** Substring searched in the decoded output, across frame boundaries (`q` or `pattern`). */
  q?: string;
  /** Frames returned (or, with `q`, matches); default DEFAULT_LIMIT, at most MAX_LIMIT. */
  limit: number;
  format: TranscriptFormat;
}

export const DEFAULT_LIMIT = 1000;
export const MAX_LIMIT = 10_000;
/** asciicast exports the whole range unless a limit is given, up to this many frames. */
export const MAX_EXPORT_FRAMES = 1_000_000;
const MAX_Q = 1024;
const STREAMS: readonly OutputStream[] = ['stdout', 'stderr', 'log'];
const KNOWN = new Set(['from_seq', 'to_seq', 'stream', 'q', 'pattern', 'limit', 'format']);

function bad(message: string): BindingError {
  return new BindingError('INVALID_REQUEST', message);
}

function seqParam(name: string, raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw bad(`'${name}' must be a non-negative integer, got '${raw}'`);
  return Number(raw);
}

/** Parses the raw query string (without `?`); every problem is a 400 naming the parameter. */
export function parseTranscriptQuery(raw: string): TranscriptQuery {
  const params = new URLSearchParams(raw);
  for (const key of params.keys()) {
    if (!KNOWN.has(key)) throw bad(`unknown parameter '${key}' (known: ${[...KNOWN].join(', ')})`);
    if (params.getAll(key).length > 1) throw bad(`parameter '${key}' given more than once`);
  }
  const q: Partial<TranscriptQuery> & { limit?: number } = {};
  const from = params.get('from_seq');
  if (from !== null && from !== '') q.fromSeq = seqParam('from_seq', from);
  const to = params.get('to_seq');
  if (to !== null && to !== '') q.toSeq = seqParam('to_seq', to);
  if (q.fromSeq !== undefined && q.toSeq !== undefined && q.toSeq < q.fromSeq) {
    throw bad(`'to_seq' (${q.toSeq}) is before 'from_seq' (${q.fromSeq})`);
  }
  const stream = params.get('stream');
  if (stream !== null && stream !== '') {
    const names = stream.split(',');
    for (const n of names) {
      if (!STREAMS.includes(n as OutputStream)) throw bad(`'stream' must be ${STREAMS.join(', ')} (comma-separated)`);
    }
    q.streams = new Set(names as OutputStream[]);
  }
  const text = params.get('q') ?? params.get('pattern');
  if (params.has('q') && params.has('pattern')) throw bad("give 'q' or 'pattern', not both");
  if (text !== null) {
    if (text === '') throw bad(`'q' must not be empty`);
    if (text.length > MAX_Q) throw bad(`'q' is longer than ${MAX_Q} characters`);
    q.q = text;
  }
  const format = params.get('format') ?? 'json';
  if (format !== 'json' && format !== 'asciicast') throw bad(`'format' must be json or asciicast`);
  if (format === 'asciicast' && q.q !== undefined) throw bad(`'q' cannot be combined with format=asciicast`);
  const limit = params.get('limit');
  if (limit !== null && limit !== '') {
    const n = seqParam('limit', limit);
    const max = format === 'asciicast' ? MAX_EXPORT_FRAMES : MAX_LIMIT;
    if (n < 1 || n > max) throw bad(`'limit' must be between 1 and ${max}`);
    q.limit = n;
  }
  return { ...q, limit: q.limit ?? (format === 'asciicast' ? MAX_EXPORT_FRAMES : DEFAULT_LIMIT), format };
}
