/**
 * Options of the `node` binary that every service process is started with: `npm start`,
 * `npm run edge` / `npm run agent`, the Dockerfiles' CMD, the README's cluster commands, testkit
 * and the bench (tests/observability/node-flags.test.ts and tests/deploy/dockerfiles.test.ts keep
 * them in step with this list). A process cannot set them itself (V8 sizes its heap before any
 * JavaScript runs) and NODE_OPTIONS refuses them.
 *
 * `--initial-old-space-size=64`: a floor under V8's old-generation limit. V8 counts the external
 * memory allocated since the last full collection (every PTY read and every Output frame is a
 * Buffer outside the JavaScript heap) against that limit, and marks once the room left is below
 * the young generation's size. Without a floor the limit settles at about twice the ~15 MB that is
 * live, so a 50 MB stream ran a full collection every 0.1–0.2 s: a quarter of the event loop's busy
 * time. With the floor: 2–5 collections per stream instead of ~10, and 25–30 % less CPU per MB
 * (alternating A/B of fresh processes). The cost is garbage kept up to the floor before it is
 * collected; peak RSS under a flood stayed within tests/security/slow-consumer-rss's bounds.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--initial-old-space-size=64'];

/** V8 spells its options with `-` or `_` alike. */
const optionName = (arg: string): string => (arg.split('=')[0] ?? '').replace(/_/g, '-');

/**
 * The SERVICE_NODE_FLAGS this process was started without. An option given with another value
 * counts as given: the operator chose it.
 */
export function missingServiceNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  const given = new Set(execArgv.map(optionName));
  return SERVICE_NODE_FLAGS.filter((flag) => !given.has(optionName(flag)));
}

/** The startup warning of a service started without SERVICE_NODE_FLAGS, or undefined. */
export function nodeFlagsWarning(
  execArgv: readonly string[] = process.execArgv,
): { fields: { missing_node_options: string[] }; message: string } | undefined {
  const missing = missingServiceNodeFlags(execArgv);
  if (missing.length === 0) return undefined;
  return {
    fields: { missing_node_options: missing },
    message: `node was started without ${missing.join(' ')}: output streams cost more CPU (start it as npm start and the Dockerfiles do; deploy/README.md)`,
  };
}
