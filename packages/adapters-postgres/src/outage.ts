/**
 * SQLSTATE classes and codes that say the server cannot serve now, not that the statement is
 * wrong: connection exceptions (08), insufficient resources (53), the server shutting down or
 * starting up (57P01–57P03).
 */
const UNAVAILABLE_STATES = /^(08|53)...$|^57P0[123]$/;

/** Socket failures on the way to the server (refused, reset, unreachable, name lookup). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** The messages pg gives its own connection failures, which carry no code. */
const CLIENT_FAILURES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Query read timeout/i;

/**
 * Whether a failed query failed because PostgreSQL could not be reached or could not serve (the
 * caller may retry later), as opposed to the statement or its data being refused.
 */
export function isPostgresOutage(err: unknown): boolean {
  // Duck-typed: socket errors come from Node's own realm, where `instanceof Error` may not hold.
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return UNAVAILABLE_STATES.test(code);
  }
  return typeof message === 'string' && CLIENT_FAILURES.test(message);
}
