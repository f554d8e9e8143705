import { isIP } from 'node:net';

/**
 * How one variable's text becomes a value and what values are acceptable.
 *
 * Parsing (text → value) and checking (value → acceptable?) are separate so that `overrides`,
 * which arrive already typed, go through the same range checks as the environment.
 */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

export interface Rule<T> {
  /** What a valid value looks like, phrased to follow "expected". */
  readonly expected: string;
  parse(text: string): Parsed<T>;
  /** Returns what is wrong with an already typed value, or undefined when it is fine. */
  check(value: T): string | undefined;
}

/** setTimeout fires at once (with a warning) past 2^31-1 ms, so every timer value stays below it. */
export const MAX_TIMER_MS = 2_147_483_647;
export const MAX_TIMER_S = Math.floor(MAX_TIMER_MS / 1000);

/** The non-empty, trimmed items of a comma-separated value. */
export function splitList(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function withExpected(what: string, expected: string): string {
  return `${what}; expected ${expected}`;
}

export function integer(min: number, max: number): Rule<number> {
  const expected = `a whole number from ${min} to ${max}`;
  return {
    expected,
    parse(text) {
      const t = text.trim();
      // Number() would accept "1e3", "0x10" and "" — surprising in a config file, so digits only.
      if (!/^-?\d+$/.test(t)) return { ok: false, problem: withExpected('not a whole number', expected) };
      const value = Number(t);
      if (!Number.isSafeInteger(value)) return { ok: false, problem: withExpected('too large', expected) };
      return { ok: true, value };
    },
    check(value) {
      if (!Number.isSafeInteger(value)) return withExpected('not a whole number', expected);
      if (value < min) return withExpected('too small', expected);
      if (value > max) return withExpected('too large', expected);
      return undefined;
    },
  };
}

export function oneOf<T extends string>(values: readonly T[]): Rule<T> {
  const expected = `one of ${values.join('|')}`;
  const isMember = (v: string): v is T => (values as readonly string[]).includes(v);
  return {
    expected,
    parse(text) {
      const t = text.trim();
      return isMember(t) ? { ok: true, value: t } : { ok: false, problem: withExpected('not a known value', expected) };
    },
    check(value) {
      return isMember(value) ? undefined : withExpected('not a known value', expected);
    },
  };
}

/** A two-word switch stored as a boolean (PTYWS_AUTH=enabled|disabled). */
export function toggle(on: string, off: string): Rule<boolean> {
  const expected = `${on} or ${off}`;
  return {
    expected,
    parse(text) {
      const t = text.trim();
      if (t === on) return { ok: true, value: true };
      if (t === off) return { ok: true, value: false };
      return { ok: false, problem: withExpected('not a known value', expected) };
    },
    check(value) {
      return typeof value === 'boolean' ? undefined : withExpected('not a boolean', expected);
    },
  };
}

/** A string checked by a predicate; `parse` only trims. */
export function text(expected: string, isValid: (value: string) => boolean, what = 'invalid'): Rule<string> {
  return {
    expected,
    parse(raw) {
      const value = raw.trim();
      return isValid(value) ? { ok: true, value } : { ok: false, problem: withExpected(what, expected) };
    },
    check(value) {
      return typeof value === 'string' && isValid(value) ? undefined : withExpected(what, expected);
    },
  };
}

export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const identifier = (): Rule<string> =>
  text(`1–64 characters of A-Z a-z 0-9 . _ - starting with a letter or digit (${ID_PATTERN.source})`, (v) =>
    ID_PATTERN.test(v),
  );

export const host = (): Rule<string> =>
  text('a host name or IP address to listen on, without spaces (e.g. 127.0.0.1, 0.0.0.0, ::)', (v) =>
    /^[^\s/]{1,253}$/.test(v),
  );

export const absolutePath = (): Rule<string> =>
  // Only the form is checked: edges load the same config but never start a shell.
  text('an absolute path such as /bin/bash', (v) => v.startsWith('/') && !/[\0\n]/.test(v), 'not an absolute path');

/**
 * The agent's state directory. Restricted to a plain path alphabet because it is embedded in
 * tmux and screen configuration and in socket paths, which have no robust quoting; short because
 * a Unix socket path is limited to 107 bytes.
 */
export const stateDirectory = (): Rule<string> =>
  text(
    'an absolute path of at most 64 characters from A-Z a-z 0-9 . _ - /',
    (v) => /^\/[A-Za-z0-9._/-]{0,63}$/.test(v),
    'not a usable state directory',
  );

/** A comma-separated list of environment variable names (empty: none). */
export function envNameList(): Rule<string[]> {
  const expected = 'comma-separated variable names such as LD_LIBRARY_PATH,BASH_ENV, or empty';
  const isName = (n: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n);
  return {
    expected,
    parse(raw) {
      const names = splitList(raw);
      return names.every(isName)
        ? { ok: true, value: names }
        : { ok: false, problem: withExpected('invalid', expected) };
    },
    check(value) {
      return Array.isArray(value) && value.every((n) => typeof n === 'string' && isName(n))
        ? undefined
        : withExpected('invalid', expected);
    },
  };
}

/** The admin token is a bearer secret: long enough not to be guessed, and free of whitespace. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;
/** Estimated bits (length × per-character Shannon entropy): one letter repeated has none. */
export const MIN_ADMIN_TOKEN_BITS = 48;
export const secretToken = (): Rule<string> =>
  text(
    `at least ${MIN_ADMIN_TOKEN_LENGTH} characters without whitespace and not repetitive (about ${MIN_ADMIN_TOKEN_BITS} bits or more; e.g. openssl rand -hex 32), or unset to generate one`,
    (v) => v.length >= MIN_ADMIN_TOKEN_LENGTH && !/\s/.test(v) && estimatedBits(v) >= MIN_ADMIN_TOKEN_BITS,
  );

/** The empirical entropy of the characters of `v`, times its length. */
export function estimatedBits(v: string): number {
  const counts = new Map<string, number>();
  for (const ch of v) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / v.length) * Math.log2(n / v.length);
  return perChar * v.length;
}

/** A user name (as useradd allows) or `uid[:gid]`; root (0) is refused, sessions as root need no variable. */
export const sessionUser = (): Rule<string> =>
  text(
    'a user name, or uid[:gid] with a uid other than 0',
    (v) => /^(?:[A-Za-z_][A-Za-z0-9_.-]{0,31}\$?|[1-9]\d{0,9}(?::\d{1,10})?)$/.test(v) && v !== 'root',
  );

/** One or more nats:// (or tls://) server URLs, comma-separated; a problem names the bad one. */
export function natsUrls(): Rule<string> {
  const expected = 'nats://host:port, several separated by commas (e.g. every node of a NATS cluster)';
  const problemOf = (value: string): string | undefined => {
    const servers = value.split(',').map((server) => server.trim());
    for (const [i, server] of servers.entries()) {
      const bad = natsServerProblem(server);
      if (bad) return withExpected(servers.length > 1 ? `server ${i + 1} of ${servers.length} ${bad}` : bad, expected);
    }
    return undefined;
  };
  return {
    expected,
    parse(raw) {
      const value = raw.trim();
      const problem = problemOf(value);
      return problem ? { ok: false, problem } : { ok: true, value };
    },
    check: (value) => (typeof value === 'string' ? problemOf(value) : withExpected('invalid', expected)),
  };
}

function natsServerProblem(server: string): string | undefined {
  if (server === '') return 'is empty';
  // Credentials stay out of the message: it is printed and logged.
  const shown = `'${server.replace(/\/\/[^@/]*@/, '//')}'`;
  if (!/^(nats|tls|ws|wss):\/\//.test(server)) return `${shown} does not start with nats://, tls://, ws:// or wss://`;
  if (/\s/.test(server)) return `${shown} contains whitespace`;
  try {
    if (new URL(server).hostname === '') return `${shown} has no host`;
  } catch {
    return `${shown} is not a valid URL (host, or port 1-65535)`;
  }
  return undefined;
}

export const postgresUrl = (): Rule<string> =>
  text('postgres://user[:password]@host[:port]/database', (v) => /^postgres(ql)?:\/\/[^\s]+$/.test(v));

/** Dot-separated NATS subject tokens; also used in stream and bucket names. */
export const subjectPrefix = (): Rule<string> =>
  text(
    'letters, digits, _ and - (dots separate tokens), e.g. ptyws or prod.ptyws',
    (v) => /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(v) && v.length <= 64,
  );

export const sqlIdentifier = (): Rule<string> =>
  text('a lower-case SQL identifier such as ptyws', (v) => /^[a-z_][a-z0-9_]{0,62}$/.test(v));

/** `address/bits` or a bare address (a single host); IPv4 or IPv6. */
export function isCidr(v: string): boolean {
  const [addr, bits, extra] = v.split('/');
  if (extra !== undefined || addr === undefined) return false;
  const family = isIP(addr);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** A comma-separated list of CIDRs (empty: none). */
export function cidrList(): Rule<string[]> {
  const expected = 'comma-separated CIDRs such as 10.0.0.0/8,127.0.0.1/32,::1/128, or empty';
  return {
    expected,
    parse(raw) {
      const items = splitList(raw);
      return items.every(isCidr)
        ? { ok: true, value: items }
        : { ok: false, problem: withExpected('invalid', expected) };
    },
    check(value) {
      return Array.isArray(value) && value.every((n) => typeof n === 'string' && isCidr(n))
        ? undefined
        : withExpected('invalid', expected);
    },
  };
}
