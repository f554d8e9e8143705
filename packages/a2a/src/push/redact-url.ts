/**
 * A webhook URL as it may be shown (API views to observers, the audit trail): webhooks often
 * carry a secret in the query string or userinfo (`?key=…`, `https://user:pw@…`), so the query
 * values and any userinfo are replaced; scheme, host, port and path stay for recognition.
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '<unparseable url>';
  }
  if (u.username || u.password) {
    u.username = 'redacted';
    u.password = '';
  }
  const keys = [...new Set(u.searchParams.keys())];
  u.search = '';
  for (const k of keys) u.searchParams.append(k, 'redacted');
  u.hash = '';
  return u.toString();
}
