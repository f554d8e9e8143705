import { SCOPES, type Scope } from '@pty-ws/protocol';
import { isCidr, splitList, text, type Rule } from './rules';

/** Where audit events go: a file, a process stream, or nowhere. */
export const AUDIT_STREAMS = ['stdout', 'stderr', 'off'] as const;

export const auditTarget = (): Rule<string> =>
  text(
    `${AUDIT_STREAMS.join(', ')} or an absolute file path`,
    (v) => (AUDIT_STREAMS as readonly string[]).includes(v) || (v.startsWith('/') && !/[\0\n]/.test(v)),
  );

const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

/** A comma-separated, non-empty list of PTY scopes (binding §7.2). */
export function scopeList(): Rule<Scope[]> {
  const expected = `comma-separated scopes from ${SCOPES.join(', ')}`;
  const problem = `invalid; expected ${expected}`;
  return {
    expected,
    parse(raw) {
      const items = splitList(raw);
      return items.length > 0 && items.every(isScope)
        ? { ok: true, value: [...new Set(items)] as Scope[] }
        : { ok: false, problem };
    },
    check(value) {
      return Array.isArray(value) && value.length > 0 && value.every((s) => typeof s === 'string' && isScope(s))
        ? undefined
        : problem;
    },
  };
}

/** A comma-separated list of items each `isValid` accepts (empty: none). */
function list(expected: string, isValid: (item: string) => boolean): Rule<string[]> {
  const problem = `invalid; expected ${expected}`;
  return {
    expected,
    parse(raw) {
      const items = splitList(raw);
      return items.every(isValid) ? { ok: true, value: items } : { ok: false, problem };
    },
    check(value) {
      return Array.isArray(value) && value.every((s) => typeof s === 'string' && isValid(s)) ? undefined : problem;
    },
  };
}

/** Web origins (`https://host[:port]`) or `*` (any), comma-separated. */
export const originList = (): Rule<string[]> =>
  list('comma-separated origins such as https://ops.example.com,http://localhost:3000, or *', (v) =>
    v === '*' ? true : /^https?:\/\/[^/?#@\s]+$/i.test(v),
  );

/** Host names (exact, case-insensitive) and CIDRs a webhook may reach though they are private. */
export const hostList = (): Rule<string[]> =>
  list('comma-separated host names or CIDRs such as hooks.internal,10.1.0.0/16,127.0.0.1', (v) =>
    isCidr(v) ? true : /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(v),
  );

/** Host names a request's `Host` header may name (exact, case-insensitive), or `*` (any). */
export const allowedHostList = (): Rule<string[]> =>
  list('comma-separated host names such as pty.example.com,edge.internal, or *', (v) =>
    v === '*'
      ? true
      : /^[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?(\.[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?)*\.?$/.test(v),
  );
