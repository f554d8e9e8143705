import { BindingError } from './errors';

/**
 * Decodes one percent-encoded URL path segment, or returns undefined when it holds a malformed
 * escape (`%ZZ`, a truncated UTF-8 sequence). `decodeURIComponent` throws a URIError there, and
 * a throw inside a uWS handler takes the whole process down before authentication has run.
 */
export function tryDecodePathSegment(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** As tryDecodePathSegment, but a malformed escape is an INVALID_REQUEST (HTTP 400) naming `what`. */
export function decodePathSegment(raw: string, what = 'path segment'): string {
  const decoded = tryDecodePathSegment(raw);
  if (decoded === undefined) throw new BindingError('INVALID_REQUEST', `malformed percent-escape in the ${what}`);
  return decoded;
}
