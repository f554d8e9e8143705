import { createHash } from 'node:crypto';
import { statusLine, type Responder } from './respond';

/**
 * How long clients and caches may reuse a card without asking again (A2A §8.6 recommends caching
 * headers). Cards change only with the configuration, and a revalidation is a cheap 304.
 */
export const CARD_MAX_AGE_S = 300;

/** A strong validator of the exact bytes served. */
function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** Whether an `If-None-Match` header names this entity tag (RFC 9110 §13.1.2: weak comparison). */
export function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** The validators a client sent (empty: absent). */
export interface Conditions {
  ifNoneMatch: string;
  ifModifiedSince: string;
}

/**
 * RFC 9110 §13.2.2: If-None-Match decides when sent; otherwise If-Modified-Since, a date no
 * earlier than the card's Last-Modified (second precision, as HTTP dates are).
 */
function notModified(conditions: Conditions, etag: string, lastModified: Date): boolean {
  if (conditions.ifNoneMatch !== '') return matchesIfNoneMatch(conditions.ifNoneMatch, etag);
  const since = Date.parse(conditions.ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000);
}

/**
 * The card with `cache-control`, `etag` and `last-modified` (when this edge started serving it:
 * it changes only with the configuration), and 304 Not Modified when the caller holds it already.
 */
export function sendCard(r: Responder, card: unknown, conditions: Conditions, lastModified: Date): void {
  if (r.aborted) return;
  const body = JSON.stringify(card);
  const etag = etagOf(body);
  const fresh = notModified(conditions, etag, lastModified);
  r.res.cork(() => {
    r.res.writeStatus(statusLine(fresh ? 304 : 200));
    if (!fresh) r.res.writeHeader('content-type', 'application/json');
    r.res.writeHeader('cache-control', `public, max-age=${CARD_MAX_AGE_S}`);
    r.res.writeHeader('etag', etag);
    r.res.writeHeader('last-modified', lastModified.toUTCString());
    r.res.end(fresh ? undefined : body);
  });
}
