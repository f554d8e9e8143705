/**
 * The agent's one reach into node-pty's private API (its adapter: nothing else names these
 * members). node-pty's JavaScript API opens a pty only together with a fork; the agent needs the
 * two steps apart (open the pair, let its spawner start the program), so it takes node-pty's
 * native binding, which node-pty 1.1 loads through its private `lib/utils` module
 * (`loadNativeModule('pty')`), and calls the binding's `open` and `resize`.
 * services/pty-agent/test/private-api.test.ts fails, naming the member and node-pty's version, the
 * day an upgrade moves them; without them the agent falls back to node-pty forking it (and says so).
 */
export interface PtyPair {
  master: number;
  slave: number;
  /** The slave's path, /dev/pts/N. */
  pty: string;
}

export interface NativePty {
  open(cols: number, rows: number): PtyPair;
  resize(fd: number, cols: number, rows: number): void;
}

interface NodePtyUtils {
  loadNativeModule?: (name: string) => { module?: Partial<NativePty> };
}

/** The installed node-pty's version, for messages. */
export function nodePtyVersion(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('node-pty/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The binding, or why it cannot be had (the member that is missing and node-pty's version). */
export function loadNativePty(): { native: NativePty } | { problem: string } {
  const where = `node-pty ${nodePtyVersion()}`;
  let utils: NodePtyUtils;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    utils = require('node-pty/lib/utils') as NodePtyUtils;
  } catch (err) {
    return { problem: `${where}: require('node-pty/lib/utils') failed (${(err as Error).message})` };
  }
  if (typeof utils.loadNativeModule !== 'function')
    return { problem: `${where}: lib/utils has no loadNativeModule function` };
  let native: Partial<NativePty> | undefined;
  try {
    native = utils.loadNativeModule('pty').module;
  } catch (err) {
    return { problem: `${where}: loadNativeModule('pty') failed (${(err as Error).message})` };
  }
  for (const member of ['open', 'resize'] as const) {
    if (typeof native?.[member] !== 'function')
      return { problem: `${where}: the native 'pty' module has no ${member} function` };
  }
  return { native: native as NativePty };
}

/** The binding, or undefined when this node-pty does not expose it (the agent then forks itself). */
export function nativePty(): NativePty | undefined {
  const loaded = loadNativePty();
  return 'native' in loaded ? loaded.native : undefined;
}
