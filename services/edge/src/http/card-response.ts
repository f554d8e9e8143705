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

/** The card with `cache-control`, `etag`, and 304 Not Modified when the caller holds it already. */
export function sendCard(r: Responder, card: unknown, ifNoneMatch: string): void {
  if (r.aborted) return;
  const body = JSON.stringify(card);
  const etag = etagOf(body);
  const fresh = ifNoneMatch !== '' && matchesIfNoneMatch(ifNoneMatch, etag);
  r.res.cork(() => {
    r.res.writeStatus(statusLine(fresh ? 304 : 200));
    if (!fresh) r.res.writeHeader('content-type', 'application/json');
    r.res.writeHeader('cache-control', `public, max-age=${CARD_MAX_AGE_S}`);
    r.res.writeHeader('etag', etag);
    r.res.end(fresh ? undefined : body);
  });
}
