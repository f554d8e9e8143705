import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import {
  getSession,
  getTranscript,
  getTranscriptCast,
  type TranscriptMatch,
  type TranscriptPage,
  type TranscriptParams,
} from '../api';
import { settingsOf } from '../context';
import { FollowGrep } from '../follow-grep';
import { usageError } from '../exit-codes';
import { printJson } from '../format';
import { sequenceNumber } from '../parsers';
import type { Settings } from '../settings';

interface TranscriptFlags {
  fromSeq?: number;
  toSeq?: number;
  stream?: string;
  grep?: string;
  limit?: number;
  follow?: boolean;
  format?: string;
  json?: boolean;
}

const STREAMS = ['stdout', 'stderr', 'log'];
/** Frames (or matches) asked for per request; the server allows up to 10000. */
const PAGE = 5000;
const FOLLOW_POLL_MS = 500;

function streamName(value: string): string {
  for (const s of value.split(',')) {
    if (!STREAMS.includes(s)) throw new InvalidArgumentError(`expected ${STREAMS.join(', ')}, got '${s}'`);
  }
  return value;
}

const positive = (value: string): number => {
  const n = sequenceNumber(value);
  if (n < 1) throw new InvalidArgumentError(`expected at least 1, got ${value}`);
  return n;
};

/** Control characters of a match made visible, so each match stays on one line. */
function visible(text: string): string {
  return text
    .replace(/\r\n/g, '⏎')
    .replace(/[\r\n]/g, '⏎')
    .replace(/\t/g, ' ')
    .replace(/\p{Cc}/gu, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function printMatch(m: TranscriptMatch): void {
  const where = m.start_seq === m.end_seq ? `${m.start_seq}` : `${m.start_seq}-${m.end_seq}`;
  process.stdout.write(`${where}: ${visible(m.before)}${visible(m.text)}${visible(m.after)}\n`);
}

/** Output bytes of a page straight to stdout, like `tail` does for live output. */
function printOutput(page: TranscriptPage): void {
  for (const f of page.frames) {
    if (f.kind === 'Output' && typeof f.data === 'string') process.stdout.write(Buffer.from(f.data, 'base64'));
  }
}

/**
 * Reads pages from `from` until the range (or `limit` frames/matches) is done; each page goes
 * to `emit`. Returns where the next read would start and how much is left of the limit.
 */
async function readPages(
  s: Settings,
  id: string,
  params: TranscriptParams,
  from: number | undefined,
  left: number | undefined,
  emit: (page: TranscriptPage) => void,
): Promise<{ next: number; left: number | undefined }> {
  let fromSeq = from;
  for (;;) {
    const limit = left === undefined ? PAGE : Math.min(PAGE, left);
    const page = await getTranscript(s, id, {
      ...params,
      ...(fromSeq !== undefined ? { fromSeq } : {}),
      limit,
    });
    emit(page);
    const got = params.q !== undefined ? (page.matches?.length ?? 0) : page.frames.length;
    if (left !== undefined) left -= got;
    const next = page.next_from_seq ?? Math.max(page.to_seq, (fromSeq ?? 1) - 1) + 1;
    if (!page.truncated || (left !== undefined && left <= 0)) return { next, left };
    fromSeq = next;
  }
}

export function registerTranscript(program: Command): void {
  program
    .command('transcript')
    .description("print a session's transcript: the retained log plus the archive of older frames")
    .argument('<session>', 'session id')
    .option('--from-seq <seq>', 'first sequence number (default: the oldest available)', sequenceNumber)
    .option('--to-seq <seq>', 'last sequence number (default: the newest)', sequenceNumber)
    .option('--stream <name>', `only output of this stream (${STREAMS.join(', ')}; comma-separated)`, streamName)
    .option('--grep <text>', 'print the matches of this text (found across frame boundaries), one per line')
    .option('--limit <n>', 'at most this many frames (with --grep: matches)', positive)
    .option('--follow', 'keep printing new output until the session closes')
    .option('--format <format>', 'asciicast: print an asciicast v2 recording (asciinema play file.cast)')
    .option('--json', 'print the transcript (frames and matches) as one JSON document')
    .addHelpText(
      'after',
      '\nWithout --grep or --json, stdout gets the raw output bytes (escape sequences included).\n' +
        'Matches print as `<first seq>[-<last seq>]: <text around the match>`. Needs pty:observe.',
    )
    .action(async (id: string, flags: TranscriptFlags, cmd: Command) => {
      if (flags.format !== undefined && flags.format !== 'asciicast') {
        throw usageError(`--format must be asciicast, got '${flags.format}'`);
      }
      if (flags.format && (flags.grep !== undefined || flags.follow || flags.json)) {
        throw usageError('--format asciicast cannot be combined with --grep, --follow or --json');
      }
      if (flags.json && flags.follow) throw usageError('--json cannot be combined with --follow');
      if (flags.fromSeq !== undefined && flags.toSeq !== undefined && flags.toSeq < flags.fromSeq) {
        throw usageError('--to-seq is before --from-seq');
      }
      const s = settingsOf(cmd);
      const params: TranscriptParams = {
        ...(flags.toSeq !== undefined ? { toSeq: flags.toSeq } : {}),
        ...(flags.stream !== undefined ? { stream: flags.stream } : {}),
        ...(flags.grep !== undefined ? { q: flags.grep } : {}),
      };

      if (flags.format === 'asciicast') {
        process.stdout.write(
          await getTranscriptCast(s, id, {
            ...params,
            ...(flags.fromSeq !== undefined ? { fromSeq: flags.fromSeq } : {}),
            ...(flags.limit !== undefined ? { limit: flags.limit } : {}),
          }),
        );
        return;
      }

      if (flags.json) {
        let doc: TranscriptPage | undefined;
        await readPages(s, id, params, flags.fromSeq, flags.limit, (page) => {
          doc = doc
            ? {
                ...page,
                from_seq: doc.from_seq,
                frames: [...doc.frames, ...page.frames],
                ...(page.matches ? { matches: [...(doc.matches ?? []), ...page.matches] } : {}),
              }
            : page;
        });
        return printJson(doc);
      }

      if (flags.follow && flags.grep !== undefined) return followGrep(s, id, flags, flags.grep);
      const emit = (page: TranscriptPage): void => {
        if (flags.grep !== undefined) (page.matches ?? []).forEach(printMatch);
        else printOutput(page);
      };
      let { next, left } = await readPages(s, id, params, flags.fromSeq, flags.limit, emit);
      if (!flags.follow) return;
      // Following: poll for what is new until the session has closed and all of it is printed.
      for (;;) {
        if (left !== undefined && left <= 0) return;
        if (flags.toSeq !== undefined && next > flags.toSeq) return;
        const closed = (await getSession(s, id)).state === 'closed';
        ({ next, left } = await readPages(s, id, params, next, left, emit));
        if (closed) return;
        await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
      }
    });
}

/**
 * `--follow --grep`: reads the frames (not the server's matches) and searches them here, keeping
 * the tail of the text already read, so a match split across two polls is still printed once.
 */
async function followGrep(s: Settings, id: string, flags: TranscriptFlags, q: string): Promise<void> {
  const grep = new FollowGrep(q);
  const params: TranscriptParams = {
    ...(flags.toSeq !== undefined ? { toSeq: flags.toSeq } : {}),
    ...(flags.stream !== undefined ? { stream: flags.stream } : {}),
  };
  let left = flags.limit;
  const emit = (page: TranscriptPage): void => {
    for (const m of grep.page(page)) {
      if (left !== undefined && left <= 0) return;
      printMatch(m);
      if (left !== undefined) left--;
    }
  };
  let { next } = await readPages(s, id, params, flags.fromSeq, undefined, emit);
  for (;;) {
    if (left !== undefined && left <= 0) return;
    if (flags.toSeq !== undefined && next > flags.toSeq) return;
    const closed = (await getSession(s, id)).state === 'closed';
    ({ next } = await readPages(s, id, params, next, undefined, emit));
    if (closed) return;
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
  }
}
