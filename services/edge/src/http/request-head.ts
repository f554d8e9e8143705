import type { HttpRequest } from '../uws';

/**
 * True when the request names more than one distinct `Content-Length` (RFC 9112 §6.3: a
 * message with conflicting lengths is invalid and must be refused). uWS reads the first and
 * passes the rest on; a proxy in front may have framed the body by another, which is how
 * request smuggling starts. Identical repeats are the same length and pass.
 */
export function hasConflictingContentLength(req: HttpRequest): boolean {
  let first: string | undefined;
  let conflict = false;
  req.forEach((key, value) => {
    if (key !== 'content-length') return;
    // `Content-Length: 5, 7` is a list of lengths in one field: as conflicting as two fields.
    for (const item of value.split(',')) {
      const length = item.trim();
      if (first === undefined) first = length;
      else if (length !== first) conflict = true;
    }
  });
  return conflict;
}
