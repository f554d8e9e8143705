import { SearchableText } from '@pty-ws/protocol';
import type { TranscriptMatch, TranscriptPage } from './api';

/** Characters of context kept before the next poll's text (the server shows as many). */
const CONTEXT = 40;

/**
 * `--follow --grep`: the search runs here, over each poll's Output frames appended to the end of
 * the text already seen, so a match split across two polls is found once it completes (the
 * server's `q` only sees the range of one request). Characters already searched past are never
 * searched again, so each match prints once; the tail kept is the longest partial match plus
 * context.
 */
export class FollowGrep {
  private readonly text = new SearchableText();
  /** Where the next search starts (past the last match, or where a new match could still begin). */
  private searchFrom = 0;

  constructor(private readonly q: string) {}

  /** The matches this page completes, oldest first. */
  page(page: TranscriptPage): TranscriptMatch[] {
    for (const f of page.frames) {
      if (f.kind === 'Output' && typeof f.data === 'string') this.text.push(f.sequence, Buffer.from(f.data, 'base64'));
    }
    const found = this.text.find(this.q, Number.MAX_SAFE_INTEGER, this.searchFrom);
    const last = found.at(-1);
    // A match can still start in the last q.length - 1 characters, never before them.
    this.searchFrom = Math.max(last?.endChar ?? 0, this.searchFrom, this.text.length - (this.q.length - 1));
    const dropped = this.text.keepTail(Math.max(this.text.length - this.searchFrom, 0) + CONTEXT);
    this.searchFrom -= dropped;
    return found.map((m) => ({
      start_seq: m.startSeq,
      end_seq: m.endSeq,
      text: m.text,
      before: m.before,
      after: m.after,
    }));
  }
}
