import { BindingError, errorPayload } from '@pty-ws/protocol';
import type { FrameLog, SessionRecord, TranscriptArchive } from '@pty-ws/ports';
import { canObserve, type Principal } from '../auth';
import { sendJson, type Responder } from '../http/respond';
import { StreamedBody } from '../http/streamed-body';
import type { EdgeAudit } from '../audit/edge-audit';
import { parseTranscriptQuery } from './query';
import { TranscriptSource } from './source';
import { SearchGate } from './search-gate';
import type { SearchBudget } from './transcript-search';
import { exportAsciicast, listFrames, searchFrames } from './transcript-view';

/** A GET request to a route that needs only pty:observe (this one, agent-api/agent-routes.ts). */
export interface RouteRequest {
  params: string[];
  query: string;
  /** The caller's address (the audit trail's `source_address`). */
  sourceAddress: string;
}

export type Route = (
  pattern: string,
  handler: (r: Responder, req: RouteRequest, principal: Principal) => Promise<unknown>,
) => void;

export interface TranscriptDeps {
  log: FrameLog;
  transcripts?: TranscriptArchive;
  /**
   * Throws a "not found" BindingError for a session unknown to this instance or outside the
   * principal's binding: a session-bound token learns nothing of other sessions, not even that
   * they exist.
   */
  findSession(id: string, principal: Principal): Promise<SessionRecord>;
  notFound(err: unknown, r: Responder): void;
  /** Every read is recorded (a disclosure of the session's output); absent: not recorded. */
  audit?: Pick<EdgeAudit, 'transcriptRead'>;
  /** Bounds of one search request (`q`); default DEFAULT_SEARCH_BUDGET. */
  searchBudget?: SearchBudget;
  /** Searches running at once on this edge (one per principal besides); default 4. */
  maxSearches?: number;
  /** asciicast exports streaming at once on this edge (one per principal besides); default 4. */
  maxExports?: number;
}

/** Seconds a refused search or export is told to wait: about one search's time budget. */
const SCAN_RETRY_AFTER_S = 2;

function refuseScan(r: Responder, message: string): void {
  sendJson(r, 429, { error: errorPayload('RATE_LIMITED', message) }, { 'retry-after': String(SCAN_RETRY_AFTER_S) });
}

/**
 * `GET /api/v1/sessions/{id}/transcript?from_seq=&to_seq=&stream=&q=&limit=&format=`: the
 * session's frames from the hot log and the transcript archive, as JSON pages, as search matches
 * (`q`/`pattern`), or as an asciicast v2 recording streamed at the pace the client reads it.
 * Needs pty:observe on that session; works for closed sessions until they are forgotten
 * (PTYWS_CLOSED_SESSION_TTL_S).
 */
export function mountTranscriptRoute(route: Route, deps: TranscriptDeps): void {
  const searches = new SearchGate(deps.maxSearches ?? 4);
  const exporting = new SearchGate(deps.maxExports ?? 4);
  route('/api/v1/sessions/:id/transcript', async (r, req, principal) => {
    if (!canObserve(principal)) {
      throw new BindingError('PERMISSION_DENIED', 'reading a transcript needs the pty:observe scope');
    }
    const query = parseTranscriptQuery(req.query);
    let rec: SessionRecord;
    try {
      rec = await deps.findSession(req.params[0]!, principal);
    } catch (err) {
      return deps.notFound(err, r);
    }
    const source = new TranscriptSource(rec.sessionId, deps.log, deps.transcripts);
    const bounds = await source.bounds();
    const from = Math.max(query.fromSeq ?? bounds.firstSeq, 1);
    const to = Math.min(query.toSeq ?? bounds.lastSeq, bounds.lastSeq);
    const range = { from, to };
    deps.audit?.transcriptRead(principal, rec.sessionId, {
      format: query.format,
      from_seq: from,
      to_seq: to,
      search: query.q !== undefined,
      via: 'http',
      source_address: req.sourceAddress || null,
    });

    if (query.format === 'asciicast') {
      const release = exporting.tryEnter(principal.id);
      if (!release) return refuseScan(r, 'a transcript export of this principal (or too many) is running');
      const body = new StreamedBody(r, {
        status: '200 OK',
        headers: {
          'content-type': 'application/x-asciicast',
          'content-disposition': `attachment; filename="${rec.sessionId}.cast"`,
          'cache-control': 'no-store',
        },
      });
      try {
        await exportAsciicast(source, rec, query, range, (part) => body.write(part));
        body.end();
      } catch (err) {
        // Before the first byte it is an ordinary error answer; after it, the body is cut short.
        if (!body.headWritten) throw err;
        body.fail();
      } finally {
        release();
      }
      return;
    }

    const head = {
      session_id: rec.sessionId,
      state: rec.state,
      first_seq: bounds.firstSeq,
      last_seq: bounds.lastSeq,
      hot_first_seq: bounds.hotFirstSeq,
      archived_through: bounds.archivedLastSeq,
      from_seq: from,
    };
    if (query.q !== undefined) {
      const release = searches.tryEnter(principal.id);
      if (!release) return refuseScan(r, 'a transcript search of this principal (or too many) is running');
      let found;
      try {
        found = await searchFrames(source, { ...query, q: query.q }, range, deps.searchBudget);
      } finally {
        release();
      }
      return sendJson(r, 200, {
        ...head,
        to_seq: found.scannedTo,
        q: query.q,
        matches: found.matches,
        frames: found.frames,
        truncated: found.truncated,
        next_from_seq: found.truncated ? found.scannedTo + 1 : null,
      });
    }
    const listed = await listFrames(source, query, range);
    sendJson(r, 200, {
      ...head,
      to_seq: listed.scannedTo,
      frames: listed.frames,
      truncated: listed.truncated,
      next_from_seq: listed.truncated ? listed.scannedTo + 1 : null,
    });
  });
}
