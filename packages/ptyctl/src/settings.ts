import { usageError } from './exit-codes';

export const DEFAULT_URL = 'http://127.0.0.1:8080';

/** The global flags as commander hands them over (every value optional). */
export interface GlobalFlags {
  url?: string;
  token?: string;
  instance?: string;
}

/** Where and as whom to talk to the server, after flags and environment are merged. */
export interface Settings {
  /** http(s) origin with an optional path prefix, without a trailing slash. */
  baseUrl: string;
  token: string | undefined;
  /** Explicit instance (flag or PTYWS_INSTANCE); undefined means "discover". */
  instance: string | undefined;
}

type Env = Record<string, string | undefined>;

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

/** Flags win over the environment; the URL must be http(s) and must not carry credentials. */
export function resolveSettings(flags: GlobalFlags, env: Env = process.env): Settings {
  const raw = nonEmpty(flags.url) ?? nonEmpty(env['PTYWS_URL']) ?? DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usageError(`--url: not a URL: ${raw}`);
  }
  if (url.protocol === 'ws:' || url.protocol === 'wss:') url.protocol = url.protocol === 'ws:' ? 'http:' : 'https:';
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`--url must be http(s):// (or ws(s)://), got ${url.protocol}//`);
  }
  // Secrets in URLs end up in logs and shell history: refuse rather than silently strip them.
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw usageError(
      '--url must not contain credentials, a query string or a fragment; pass the token with --token or PTYWS_TOKEN',
    );
  }
  const token = nonEmpty(flags.token) ?? nonEmpty(env['PTYWS_TOKEN']);
  const instance = nonEmpty(flags.instance) ?? nonEmpty(env['PTYWS_INSTANCE']);
  return { baseUrl: url.toString().replace(/\/+$/, ''), token, instance };
}
