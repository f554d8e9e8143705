export const REDACTED = '<redacted>';

const MAX_SHOWN = 80;

/**
 * A value as it appears in a problem: quoted when it holds whitespace or unusual characters
 * (so the reader sees them), cut when long, and never shown at all when secret.
 */
export function describeValue(value: unknown, secret: boolean): string {
  if (secret) return REDACTED;
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const shown = s.slice(0, MAX_SHOWN);
  const quoted = shown === '' || /[\s"\\]|[^\x20-\x7e]/.test(shown) ? JSON.stringify(shown) : shown;
  return s.length > MAX_SHOWN ? `${quoted}…` : quoted;
}
