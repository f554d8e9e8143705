import type { Config } from './config';
import type { Rule } from './rules';

/**
 * Which process reads a variable in cluster mode (single-node runs both in one): `edge` (HTTP and
 * WebSocket front), `agent` (owns sessions and their PTYs), or `both`.
 */
export const READERS = ['edge', 'agent', 'both'] as const;
export type Reader = (typeof READERS)[number];

/**
 * How close to hand a variable is. `essential`: what a deployment sets (addresses, backends,
 * secrets, TLS). `operations`: limits, retention and security policy an operator sizes. `tuning`:
 * trades a knowledgeable operator may make, each with a reason (`why`). `test`: read, but only
 * for tests and experiments; left out of the documentation tables.
 */
export const TIERS = ['essential', 'operations', 'tuning', 'test'] as const;
export type Tier = (typeof TIERS)[number];

/** One configuration variable as documented (docs/configuration.md is generated from these). */
export interface ConfigVariable {
  name: string;
  field: keyof Config;
  /** The default as text for people; dynamic defaults are described (`<hostname>-<pid>`). */
  default: string;
  description: string;
  reader: Reader;
  tier: Tier;
  /** Tuning variables: when an operator would change it. */
  why?: string;
}

interface BaseSpec<K extends keyof Config> {
  name: string;
  reader: Reader;
  default: string;
  description: string;
  rule: Rule<NonNullable<Config[K]>>;
  /** For defaults that are not the parsed `default` text (machine-dependent or absent). */
  defaultValue?: (env: NodeJS.ProcessEnv) => Config[K];
  /** Never echoed in problems. */
  secret?: boolean;
  /**
   * `<name>_FILE` may name a file holding the value instead: a secret read from a file never sits in
   * a process's initial environment (/proc/<pid>/environ), which cannot be cleared after start.
   */
  fromFile?: boolean;
}

/** A tuning variable must say when to change it; the others must not need to. */
export type VariableSpec<K extends keyof Config> = BaseSpec<K> &
  ({ tier: 'essential' | 'operations' | 'test'; why?: never } | { tier: 'tuning'; why: string });

/** Keyed by field so the compiler insists every Config field has exactly one variable. */
export type SpecTable = { [K in keyof Config]-?: VariableSpec<K> };

/** One area's variables: a file per area keeps each list short; variables.ts joins them. */
export type SpecPart = Partial<SpecTable>;

export const MAX_RETENTION_S = 10 * 365 * 86_400;
export const MIB = 1024 * 1024;
