/** Ids made only of these characters are used verbatim: readable in `nats stream view` and `nats kv ls`. */
const VERBATIM = /^[A-Za-z0-9_-]+$/;

/**
 * An id (session, agent, instance) as one NATS subject token or KV key, the same for every
 * component that builds a subject from it. Ids may hold `.` (hostnames as agent ids), and `.`,
 * `*`, `>` or whitespace would split or widen a subject, so anything outside [A-Za-z0-9_-] is
 * base64url-encoded behind `=`. Injective: a verbatim token never contains `=`.
 */
export function subjectToken(id: string): string {
  return VERBATIM.test(id) ? id : `=${Buffer.from(id, 'utf8').toString('base64url')}`;
}

/** The id a subjectToken stands for. */
export function idOfSubjectToken(token: string): string {
  return token.startsWith('=') ? Buffer.from(token.slice(1), 'base64url').toString('utf8') : token;
}
