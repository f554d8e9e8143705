import { SCOPES, type Scope } from '@pty-ws/protocol';
import { text, type Rule } from './rules';

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
      const items = raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
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
