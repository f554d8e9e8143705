/**
 * The environment every service process is started with, beside its `node` options
 * (node-flags.ts), and by the same ways: `npm start`, `npm run edge` / `npm run agent`, the
 * Dockerfiles, the README's cluster commands, testkit and the bench
 * (tests/observability/node-flags.test.ts keeps them in step with this list). glibc reads its
 * tunables once, before any JavaScript runs.
 *
 * `GLIBC_TUNABLES=glibc.malloc.hugetlb=1`: glibc's malloc asks for transparent huge pages
 * (madvise) on the memory it maps. Every Output frame is a fresh Buffer outside the JavaScript
 * heap that the log keeps until the transcript has it (ARCHITECTURE, "Archiving yields to live
 * output"), so a 50 MB stream touched ~360 new 4 KiB pages per MB, and on the 2-core VMs here a
 * page fault costs ~13 µs: a fifth of the event loop's time went to faulting memory in. With
 * huge pages: 70–170 faults per MB, 15–20 % less CPU per MB and a faster stream (alternating
 * rounds). Where THP is off (`never`) or the C library
 * is not glibc, the variable changes nothing. Sessions do not inherit it (session-env.ts passes
 * a short allowlist), so the programs in the terminals keep their own malloc.
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' };

/** `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` as a command prefix, the way the npm scripts and the README write it. */
export const SERVICE_ENV_PREFIX = Object.entries(SERVICE_ENV)
  .map(([k, v]) => `${k}=${v}`)
  .join(' ');

/** The tunable names in a GLIBC_TUNABLES value (`a.b.c=1:d.e=2` → a.b.c, d.e). */
function tunableNames(value: string | undefined): Set<string> {
  return new Set(
    (value ?? '')
      .split(':')
      .map((t) => t.split('=')[0] ?? '')
      .filter((n) => n.length > 0),
  );
}

/**
 * The SERVICE_ENV settings missing from `env`, as `NAME=value`. A tunable set to another value
 * counts as given: the operator chose it. Off glibc the settings mean nothing, so none are missing.
 */
export function missingServiceEnv(env: NodeJS.ProcessEnv = process.env, glibc: boolean = runsOnGlibc()): string[] {
  if (!glibc) return [];
  const missing: string[] = [];
  for (const [name, value] of Object.entries(SERVICE_ENV)) {
    const given = tunableNames(env[name]);
    const wanted = [...tunableNames(value)];
    if (!wanted.every((t) => given.has(t))) missing.push(`${name}=${value}`);
  }
  return missing;
}

/** Whether this process's C library is glibc (what GLIBC_TUNABLES speaks to). */
export function runsOnGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: unknown } } | undefined;
  return typeof report?.header?.glibcVersionRuntime === 'string';
}

/** The startup warning of a service started without SERVICE_ENV, or undefined. */
export function serviceEnvWarning(
  env: NodeJS.ProcessEnv = process.env,
  glibc: boolean = runsOnGlibc(),
): { fields: { missing_env: string[] }; message: string } | undefined {
  const missing = missingServiceEnv(env, glibc);
  if (missing.length === 0) return undefined;
  return {
    fields: { missing_env: missing },
    message: `started without ${missing.join(' ')} in the environment: output streams cost more CPU (start it as npm start and the Dockerfiles do; deploy/README.md)`,
  };
}
