import { BindingError } from '@pty-ws/protocol';
import { RE2JS, RE2JSException } from 're2js';
import type { WaitPattern } from './output-scan';

/** `GET /api/v1/sessions/{id}/wait` parameters after validation. */
export interface WaitQuery {
  pattern?: WaitPattern;
  /** Answer once no output came for this long. */
  quietMs?: number;
  timeoutMs: number;
  /** Output after this sequence counts; default: output from now on. */
  fromSeq?: number;
}

export const MAX_PATTERN_CHARS = 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_TIMEOUT_MS = 300_000;
const KNOWN = new Set(['pattern', 'regex', 'quiet_ms', 'timeout_ms', 'from_seq']);

function bad(message: string): BindingError {
  return new BindingError('INVALID_REQUEST', message);
}

function intParam(params: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  const n = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw bad(`'${name}' must be an integer from ${min} to ${max}, got '${raw}'`);
  return n;
}

function flagParam(params: URLSearchParams, name: string): boolean {
  const raw = params.get(name);
  if (raw === null) return false;
  if (raw === '' || raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw bad(`'${name}' must be true or false, got '${raw}'`);
}

/** Compiles a regex with RE2 (multi-line: `^`/`$` at line ends); one that matches empty text is refused. */
function compileRegex(source: string): WaitPattern {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, RE2JS.MULTILINE);
  } catch (err) {
    const reason = err instanceof RE2JSException ? err.message : String(err);
    throw bad(`'pattern' is not a valid RE2 regular expression: ${reason}`);
  }
  if (re.matcher('').find()) throw bad(`'pattern' matches empty text: it would match at once`);
  return { kind: 'regex', source, re };
}

/** Parses the raw query string (without `?`); every problem is a 400 naming the parameter. */
export function parseWaitQuery(raw: string): WaitQuery {
  const params = new URLSearchParams(raw);
  for (const key of params.keys()) {
    if (!KNOWN.has(key)) throw bad(`unknown parameter '${key}' (known: ${[...KNOWN].join(', ')})`);
    if (params.getAll(key).length > 1) throw bad(`parameter '${key}' given more than once`);
  }
  const text = params.get('pattern');
  const regex = flagParam(params, 'regex');
  if (regex && text === null) throw bad(`'regex' needs a 'pattern'`);
  let pattern: WaitPattern | undefined;
  if (text !== null) {
    if (text === '') throw bad(`'pattern' must not be empty`);
    if (text.length > MAX_PATTERN_CHARS) throw bad(`'pattern' is longer than ${MAX_PATTERN_CHARS} characters`);
    pattern = regex ? compileRegex(text) : { kind: 'literal', text };
  }
  const quietMs = intParam(params, 'quiet_ms', 1, MAX_TIMEOUT_MS);
  const timeoutMs = intParam(params, 'timeout_ms', 1, MAX_TIMEOUT_MS) ?? DEFAULT_TIMEOUT_MS;
  const fromSeq = intParam(params, 'from_seq', 0, Number.MAX_SAFE_INTEGER);
  return {
    ...(pattern ? { pattern } : {}),
    ...(quietMs !== undefined ? { quietMs } : {}),
    timeoutMs,
    ...(fromSeq !== undefined ? { fromSeq } : {}),
  };
}
