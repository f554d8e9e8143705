/** What `npm run capacity` grows, per profile, and its command line. */

export interface CapacityProfile {
  name: 'full' | 'quick' | 'tiny';
  /** Soft time budget of the whole run (ms); the hard limit is a little above it. */
  budgetMs: number;
  /** Idle observer sockets on one edge, opened cumulatively: RSS per socket and CPU at rest at each. */
  sockets: number[];
  /** Live idle sessions (`/bin/cat`) on one agent, created cumulatively; then all deleted (churn). */
  sessions: number[];
  /** Sessions typing at once, each closed-loop at `typingRateHz`. */
  typing: number[];
  typingRateHz: number;
  /** How long each typing level types (ms). */
  typingMs: number;
  /** Attaches in the storm (open → hello → join Keyframe), `stormConcurrency` in flight. */
  stormAttaches: number;
  stormConcurrency: number;
  /** How long CPU is sampled with every socket idle (ms). */
  restMs: number;
  /** Sessions that print and are deleted (memory after churn). */
  churnSessions: number;
}

export const CAPACITY_PROFILES: Record<CapacityProfile['name'], CapacityProfile> = {
  full: {
    name: 'full',
    budgetMs: 330_000,
    sockets: [1000, 5000, 10_000],
    sessions: [100, 500, 1000],
    typing: [10, 50, 200],
    typingRateHz: 10,
    typingMs: 5000,
    stormAttaches: 2000,
    stormConcurrency: 50,
    restMs: 5000,
    churnSessions: 500,
  },
  quick: {
    name: 'quick',
    budgetMs: 55_000,
    sockets: [500, 1000, 2000],
    sessions: [50, 100],
    typing: [10, 50],
    typingRateHz: 10,
    typingMs: 2000,
    stormAttaches: 400,
    stormConcurrency: 50,
    restMs: 2000,
    churnSessions: 100,
  },
  tiny: {
    name: 'tiny',
    // Its phases take ~25 s on an idle 2-core machine and twice that beside a busy test suite.
    budgetMs: 60_000,
    sockets: [10, 20],
    sessions: [3, 6],
    typing: [2, 4],
    typingRateHz: 10,
    typingMs: 500,
    stormAttaches: 20,
    stormConcurrency: 5,
    restMs: 500,
    churnSessions: 4,
  },
};

/** The run's phases, in the order they run; `--only` picks some of them. */
export const CAPACITY_PHASES = ['idle_sockets', 'idle_sessions', 'typing', 'attach_storm', 'churn'] as const;
export type CapacityPhase = (typeof CAPACITY_PHASES)[number];

/** Short names `--only` also takes. */
const PHASE_ALIASES: Readonly<Record<string, CapacityPhase>> = {
  sockets: 'idle_sockets',
  sessions: 'idle_sessions',
  storm: 'attach_storm',
};

export interface CapacityOptions {
  profile: CapacityProfile;
  out?: string;
  /** The phases to run (all of them unless `--only` named some). */
  phases: CapacityPhase[];
}

export const CAPACITY_USAGE =
  'usage: npm run capacity -- [--quick | --tiny] [--only <phase>[,<phase>...]] [--out <file.json>]\n' +
  `  phases: ${CAPACITY_PHASES.join(', ')} (or sockets, sessions, storm)`;

function parsePhases(list: string | undefined): CapacityPhase[] {
  if (!list) throw new Error(`--only needs a phase\n${CAPACITY_USAGE}`);
  const picked = new Set<CapacityPhase>();
  for (const name of list.split(',')) {
    const phase = PHASE_ALIASES[name] ?? CAPACITY_PHASES.find((p) => p === name);
    if (!phase) throw new Error(`unknown phase ${name}\n${CAPACITY_USAGE}`);
    picked.add(phase);
  }
  return CAPACITY_PHASES.filter((p) => picked.has(p));
}

export function parseCapacityArgs(argv: string[]): CapacityOptions {
  let profile = CAPACITY_PROFILES.full;
  let out: string | undefined;
  let phases: CapacityPhase[] = [...CAPACITY_PHASES];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') profile = CAPACITY_PROFILES.quick;
    else if (a === '--tiny') profile = CAPACITY_PROFILES.tiny;
    else if (a === '--out') {
      out = argv[++i];
      if (!out) throw new Error(`--out needs a file\n${CAPACITY_USAGE}`);
    } else if (a === '--only') phases = parsePhases(argv[++i]);
    else throw new Error(`unknown argument ${a}\n${CAPACITY_USAGE}`);
  }
  return { profile, phases, ...(out ? { out } : {}) };
}
