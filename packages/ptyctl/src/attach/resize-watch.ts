import type { WriteStream } from 'node:tty';

/** Dragging a window fires a burst of SIGWINCH; only the size it settles on is worth sending. */
const DEBOUNCE_MS = 100;

/**
 * Calls `onResize` once the terminal size has been stable for DEBOUNCE_MS. Node turns SIGWINCH
 * into the TTY stream's 'resize' event after refreshing `columns`/`rows`, so the size read there
 * is the new one (a raw process.on('SIGWINCH') could run before that refresh).
 */
export function watchResize(output: WriteStream, onResize: () => void, debounceMs = DEBOUNCE_MS): () => void {
  let timer: NodeJS.Timeout | undefined;
  const listener = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      onResize();
    }, debounceMs);
  };
  output.on('resize', listener);
  return () => {
    if (timer) clearTimeout(timer);
    output.off('resize', listener);
  };
}
