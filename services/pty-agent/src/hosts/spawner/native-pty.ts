/**
 * node-pty's native binding, for what its JavaScript API only offers together with a fork:
 * opening a pty pair (openpty) and resizing it. node-pty 1.1 loads it through `lib/utils`.
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
  loadNativeModule(name: string): { module: Partial<NativePty> };
}

/** The binding, or undefined when this node-pty does not expose it (the agent then forks itself, as before). */
export function nativePty(): NativePty | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const utils = require('node-pty/lib/utils') as NodePtyUtils;
    const native = utils.loadNativeModule('pty').module;
    return typeof native.open === 'function' && typeof native.resize === 'function' ? (native as NativePty) : undefined;
  } catch {
    return undefined;
  }
}
