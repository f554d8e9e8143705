/** Argument parsers for commander: a bad value is a usage error (exit 2) before anything is sent. */
import { InvalidArgumentError } from 'commander';
import type { Scope } from '@pty-ws/protocol';

/**
 * The scopes the server knows. A `Record<Scope, …>` (not an import of the protocol's SCOPES) so
 * the compiler still checks the list is complete while the REST commands start without loading
 * the protocol package.
 */
const SCOPE_SET: Record<Scope, true> = { 'pty:observe': true, 'pty:control': true, 'pty:admin': true };
const SCOPES = Object.keys(SCOPE_SET);

function integer(value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected an integer, got '${value}'`);
  const n = Number(value);
  if (n < min || n > max) throw new InvalidArgumentError(`expected ${min}..${max}, got ${value}`);
  return n;
}

export const terminalDimension = (value: string): number => integer(value, 1, 100000);
export const sequenceNumber = (value: string): number => integer(value, 0, Number.MAX_SAFE_INTEGER);
export const seconds = (value: string): number => integer(value, 1, 10 * 365 * 86400);

/** `--env KEY=VALUE`, repeatable. */
export function envPair(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`expected KEY=VALUE, got '${value}'`);
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}

/** `--scope pty:observe`, repeatable or comma-separated; checked against the scopes the server knows. */
export function scopeList(value: string, previous: string[] = []): string[] {
  const next = [...previous];
  for (const s of value.split(',').map((v) => v.trim())) {
    if (!SCOPES.includes(s)) {
      throw new InvalidArgumentError(`unknown scope '${s}' (one of ${SCOPES.join(', ')})`);
    }
    if (!next.includes(s)) next.push(s);
  }
  return next;
}
