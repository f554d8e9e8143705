import type { Config } from './config';
import { describeValue } from './describe-value';
import { isLoopbackHost } from './loopback';
import { FIELD_SPECS, type FieldSpec } from './variables';

/** A field's value and where it came from: the source decides which of two related fields is blamed. */
export interface Resolved {
  value: unknown;
  source: 'env' | 'override' | 'default';
}

const specOf = (field: keyof Config): FieldSpec => {
  const spec = FIELD_SPECS.find((s) => s.field === field);
  if (!spec) throw new Error(`no variable for ${field}`);
  return spec;
};

interface Relation {
  field: keyof Config;
  other: keyof Config;
  holds(value: number, other: number): boolean;
  /** Phrasing when `field` is blamed (it was set, or both were). */
  what: string;
  expected: string;
  /** Phrasing when only `other` was set explicitly, so it is the one to change. */
  otherWhat: string;
  otherExpected: string;
}

const RELATIONS: readonly Relation[] = [
  {
    field: 'pongTimeoutMs',
    other: 'pingIntervalMs',
    holds: (pong, ping) => pong > ping,
    what: 'not greater than',
    expected: 'a timeout longer than the ping interval (typically 3 × it)',
    otherWhat: 'not less than',
    otherExpected: 'an interval shorter than the pong timeout (typically a third of it)',
  },
  {
    field: 'slowConsumerBytes',
    other: 'outputFrameBytes',
    holds: (slow, frame) => slow >= frame,
    what: 'smaller than',
    expected: 'a backlog of at least one full Output frame',
    otherWhat: 'larger than',
    otherExpected: 'an Output frame no larger than the slow-consumer backlog',
  },
];

/**
 * Defaults that follow another field. An Output frame must fit in the backlog an observer may
 * have: a PTYWS_SLOW_CONSUMER_BYTES below the 256 KiB default frame (valid while that was 32 KiB)
 * caps the frame instead of refusing to start. A frame size that was set is checked as it is.
 */
export function applyDerivedDefaults(resolved: Map<keyof Config, Resolved>): void {
  const frame = resolved.get('outputFrameBytes');
  const backlog = resolved.get('slowConsumerBytes');
  if (frame?.source !== 'default' || typeof frame.value !== 'number' || typeof backlog?.value !== 'number') return;
  if (backlog.value < frame.value) resolved.set('outputFrameBytes', { value: backlog.value, source: 'default' });
}

/** Constraints between two fields, checked once both passed their own checks. */
export function crossFieldProblems(resolved: ReadonlyMap<keyof Config, Resolved>): string[] {
  const problems: string[] = [
    ...pairProblems(resolved),
    ...requiresProblems(resolved),
    ...authDisabledProblems(resolved),
  ];
  for (const rel of RELATIONS) {
    const a = resolved.get(rel.field);
    const b = resolved.get(rel.other);
    // A field that already failed its own check has been reported; don't pile on.
    if (!a || !b || typeof a.value !== 'number' || typeof b.value !== 'number') continue;
    if (rel.holds(a.value, b.value)) continue;
    const blameOther = a.source === 'default' && b.source !== 'default';
    const [blamed, blamedValue, otherSpec, otherValue, what, expected] = blameOther
      ? [specOf(rel.other), b.value, specOf(rel.field), a.value, rel.otherWhat, rel.otherExpected]
      : [specOf(rel.field), a.value, specOf(rel.other), b.value, rel.what, rel.expected];
    problems.push(
      `${blamed.name}=${describeValue(blamedValue, blamed.secret)}: ${what} ${otherSpec.name} (${otherValue}); expected ${expected}`,
    );
  }
  return problems;
}

/** Fields that mean nothing alone: a certificate without its key (or the reverse) cannot serve TLS. */
const PAIRS: ReadonlyArray<readonly [keyof Config, keyof Config]> = [['tlsCert', 'tlsKey']];

function pairProblems(resolved: ReadonlyMap<keyof Config, Resolved>): string[] {
  const problems: string[] = [];
  for (const [a, b] of PAIRS) {
    const hasA = resolved.get(a)?.value !== undefined;
    const hasB = resolved.get(b)?.value !== undefined;
    if (hasA === hasB) continue;
    const [set, missing] = hasA ? [specOf(a), specOf(b)] : [specOf(b), specOf(a)];
    problems.push(`${set.name} is set but ${missing.name} is not; expected both or neither`);
  }
  return problems;
}

/** Fields that need another: client certificates are checked only inside a TLS server. */
const REQUIRES: ReadonlyArray<readonly [keyof Config, keyof Config, string]> = [
  ['tlsCa', 'tlsCert', 'client certificates are verified only when the edge serves TLS itself'],
];

function requiresProblems(resolved: ReadonlyMap<keyof Config, Resolved>): string[] {
  const problems: string[] = [];
  for (const [field, needed, why] of REQUIRES) {
    if (resolved.get(field)?.value === undefined || resolved.get(needed)?.value !== undefined) continue;
    problems.push(`${specOf(field).name} is set but ${specOf(needed).name} is not: ${why}`);
  }
  return problems;
}

/**
 * PTYWS_AUTH=disabled gives every peer every scope: only a listener on loopback keeps the
 * network out (browsers are kept out by the Origin check). Anything else refuses to start.
 */
function authDisabledProblems(resolved: ReadonlyMap<keyof Config, Resolved>): string[] {
  if (resolved.get('authEnabled')?.value !== false) return [];
  const problems: string[] = [];
  const checked: (keyof Config)[] = ['host'];
  // PTYWS_GRPC_HOST follows PTYWS_HOST unless set; gRPC off (port 0) listens nowhere.
  if (resolved.get('grpcHost')?.value !== undefined && resolved.get('grpcPort')?.value !== 0) checked.push('grpcHost');
  for (const field of checked) {
    const value = resolved.get(field)?.value;
    if (typeof value !== 'string' || isLoopbackHost(value)) continue;
    const name = specOf(field).name;
    problems.push(
      `PTYWS_AUTH=disabled with ${name}=${value}: unauthenticated access is allowed only on loopback; expected ${name}=127.0.0.1 (or ::1), or PTYWS_AUTH=enabled`,
    );
  }
  return problems;
}
