import type { FrameLog, LogEntry, LoggedScreen } from '@pty-ws/ports';
import type { TerminalSize } from '@pty-ws/protocol';
import { screenText, type ScreenFeed } from '@pty-ws/terminal-state';

/** Entries read per step back from the log's end while looking for a keyframe. */
const PAGE = 256;
/** Output drawn at most: without a keyframe that close, the tail alone still ends on the same screen. */
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/**
 * The screen a session's frame log ends on: its last keyframe (when it is near enough), then the
 * Output and Resize frames after it, drawn on a headless terminal. `size` is the screen's size
 * when no keyframe says it. Undefined for a log with no Output or keyframe.
 */
export async function loggedScreen(
  log: FrameLog,
  sessionId: string,
  size: TerminalSize,
): Promise<LoggedScreen | undefined> {
  const { firstSeq, lastSeq } = await log.bounds(sessionId);
  const tail: LogEntry[] = [];
  let bytes = 0;
  let to = lastSeq;
  let keyframe = false;
  while (to >= firstSeq && !keyframe && bytes < MAX_OUTPUT_BYTES) {
    const from = Math.max(firstSeq - 1, to - PAGE);
    const page = await log.read(sessionId, from, { toSeq: to });
    for (let i = page.length - 1; i >= 0 && !keyframe && bytes < MAX_OUTPUT_BYTES; i--) {
      const entry = page[i] as LogEntry;
      tail.push(entry);
      if (entry.type === 'output') bytes += entry.data.length;
      else keyframe = entry.payload['kind'] === 'Keyframe';
    }
    to = from;
  }
  if (!keyframe && !tail.some((e) => e.type === 'output')) return undefined;
  const feed = tail.reverse().flatMap(toFeed);
  return screenText(size.cols, size.rows, feed);
}

function toFeed(entry: LogEntry): ScreenFeed[] {
  if (entry.type === 'output') return [{ kind: 'write', data: entry.data }];
  const p = entry.payload;
  if (p['kind'] === 'Resize') return [{ kind: 'resize', cols: Number(p['cols']), rows: Number(p['rows']) }];
  if (p['kind'] !== 'Keyframe') return [];
  return [
    { kind: 'reset', cols: Number(p['snapshot_cols']), rows: Number(p['snapshot_rows']) },
    { kind: 'write', data: Buffer.from(String(p['snapshot']), 'base64') },
  ];
}
