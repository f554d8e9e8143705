import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { getSession, getTranscript, getTranscriptCast, type TranscriptPage, type TranscriptParams } from '../api';
import { settingsOf } from '../context';
import { FollowGrep } from '../follow-grep';
import { ExitCode, StatusExit, usageError } from '../exit-codes';
import { printJson } from '../format';
import { matchLine } from '../match-line';
import { seconds, sequenceNumber } from '../parsers';
import type { Settings } from '../settings';

interface TranscriptFlags {
  fromSeq?: number;
  toSeq?: number;
  stream?: string;
  grep?: string;
  limit?: number;
  follow?: boolean;
  maxCount?: number;
  timeout?: number;
  color?: string;
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

const COLORS = ['auto', 'always', 'never'];

function colorWhen(value: string): string {
  if (!COLORS.includes(value)) throw new InvalidArgumentError(`expected ${COLORS.join(', ')}, got '${value}'`);
  return value;
}

/** Highlight matches on a terminal (as grep --color=auto does), never in a pipe or with NO_COLOR. */
function highlightOf(flags: TranscriptFlags): boolean {
  if (flags.color === 'always' || flags.color === 'never') return flags.color === 'always';
  return process.stdout.isTTY === true && !process.env['NO_COLOR'];
}

/** The smaller of two optional limits. */
function atMost(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

/** grep's exit status: 0 when something matched, 1 when nothing did. */
function grepStatus(matched: number): void {
  if (matched === 0) throw new StatusExit(ExitCode.NO_MATCH);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

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
    .option('-m, --max-count <n>', 'with --grep: stop after this many matches (also with --follow)', positive)
    .option('--timeout <seconds>', 'with --follow: stop after this many seconds', seconds)
    .option('--color <when>', `highlight matches: ${COLORS.join(', ')} (auto: when stdout is a terminal)`, colorWhen)
    .option('--format <format>', 'asciicast: print an asciicast v2 recording (asciinema play file.cast)')
    .option('--json', 'print the transcript (frames and matches) as one JSON document')
    .addHelpText(
      'after',
      '\nWithout --grep or --json, stdout gets the raw output bytes (escape sequences included).\n' +
        'Matches print as `<first seq>[-<last seq>]: <the line of the match>`. With --grep the exit\n' +
        'status is like grep: 0 when something matched, 1 when nothing did (also at --timeout).\n' +
        'Needs pty:observe.',
    )
    .action(async (id: string, flags: TranscriptFlags, cmd: Command) => {
      if (flags.format !== undefined && flags.format !== 'asciicast') {
        throw usageError(`--format must be asciicast, got '${flags.format}'`);
      }
      if (flags.format && (flags.grep !== undefined || flags.follow || flags.json)) {
        throw usageError('--format asciicast cannot be combined with --grep, --follow or --json');
      }
      if (flags.json && flags.follow) throw usageError('--json cannot be combined with --follow');
      if (flags.maxCount !== undefined && flags.grep === undefined) throw usageError('--max-count needs --grep');
      if (flags.timeout !== undefined && !flags.follow) throw usageError('--timeout needs --follow');
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

      const limit = flags.grep !== undefined ? atMost(flags.limit, flags.maxCount) : flags.limit;
      if (flags.json) {
        let doc: TranscriptPage | undefined;
        await readPages(s, id, params, flags.fromSeq, limit, (page) => {
          doc = doc
            ? {
                ...page,
                from_seq: doc.from_seq,
                frames: [...doc.frames, ...page.frames],
                ...(page.matches ? { matches: [...(doc.matches ?? []), ...page.matches] } : {}),
              }
            : page;
        });
        printJson(doc);
        return flags.grep !== undefined ? grepStatus(doc?.matches?.length ?? 0) : undefined;
      }

      if (flags.follow && flags.grep !== undefined) return followGrep(s, id, flags, flags.grep);
      const highlight = highlightOf(flags);
      let matched = 0;
      const emit = (page: TranscriptPage): void => {
        if (flags.grep === undefined) return printOutput(page);
        for (const m of page.matches ?? []) process.stdout.write(matchLine(m, highlight));
        matched += page.matches?.length ?? 0;
      };
      let { next, left } = await readPages(s, id, params, flags.fromSeq, limit, emit);
      if (flags.follow) {
        // Following: poll for what is new until the session has closed and all of it is printed.
        const deadline = deadlineOf(flags);
        for (;;) {
          if (left !== undefined && left <= 0) break;
          if (flags.toSeq !== undefined && next > flags.toSeq) break;
          const closed = (await getSession(s, id)).state === 'closed';
          ({ next, left } = await readPages(s, id, params, next, left, emit));
          if (closed || Date.now() >= deadline) break;
          await sleep(FOLLOW_POLL_MS);
        }
      }
      if (flags.grep !== undefined) grepStatus(matched);
    });
}

/** When `--follow` gives up (`--timeout`), as a Date.now() value. */
function deadlineOf(flags: TranscriptFlags): number {
  return flags.timeout === undefined ? Infinity : Date.now() + flags.timeout * 1000;
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
  const max = atMost(flags.limit, flags.maxCount);
  const highlight = highlightOf(flags);
  const deadline = deadlineOf(flags);
  let matched = 0;
  const done = (): boolean => max !== undefined && matched >= max;
  const emit = (page: TranscriptPage): void => {
    for (const m of grep.page(page)) {
      if (done()) return;
      process.stdout.write(matchLine(m, highlight));
      matched++;
    }
  };
  let { next } = await readPages(s, id, params, flags.fromSeq, undefined, emit);
  for (;;) {
    if (done() || Date.now() >= deadline) break;
    if (flags.toSeq !== undefined && next > flags.toSeq) break;
    const closed = (await getSession(s, id)).state === 'closed';
    ({ next } = await readPages(s, id, params, next, undefined, emit));
    if (closed) break;
    await sleep(FOLLOW_POLL_MS);
  }
  grepStatus(matched);
}
