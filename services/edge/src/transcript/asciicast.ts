import type { LogEntry } from '@pty-ws/ports';

/** What an asciicast v2 header says about the recording. */
export interface AsciicastHeader {
  width: number;
  height: number;
  /** Unix seconds of the first exported frame. */
  timestamp: number;
  title?: string;
}

/** The terminal size a frame sets, if it is a Resize. */
export function sizeSetBy(entry: LogEntry): { cols: number; rows: number } | undefined {
  if (entry.type !== 'event' || entry.op !== 'pty.session_frame') return undefined;
  const p = entry.payload;
  if (p['kind'] === 'Resize' && typeof p['cols'] === 'number' && typeof p['rows'] === 'number') {
    return { cols: p['cols'], rows: p['rows'] };
  }
  return undefined;
}

/**
 * asciicast v2 (https://docs.asciinema.org/manual/asciicast/v2/): a JSON header line, then one
 * JSON array per event, `[seconds since the first frame, "o", text]` for output and
 * `[seconds, "r", "COLSxROWS"]` for a resize. Output is decoded as one UTF-8 stream, so a
 * character split across frames arrives whole; only PTY output streams are exported. Lines are
 * handed out as they are made (`take`), so a long recording need never be held whole.
 */
export class AsciicastWriter {
  private readonly decoder = new TextDecoder('utf-8');
  /** Lines made and not yet taken. */
  private lines: string[] = [];
  private t0: number | undefined;
  /** Time of the last event line (0 before any). */
  private lastT = 0;

  constructor(header: AsciicastHeader) {
    this.lines.push(
      JSON.stringify({
        version: 2,
        width: header.width,
        height: header.height,
        timestamp: Math.floor(header.timestamp),
        ...(header.title !== undefined ? { title: header.title } : {}),
        env: { TERM: 'xterm-256color' },
      }),
    );
  }

  add(entry: LogEntry): void {
    this.t0 ??= entry.ts;
    const t = round6(Math.max(0, entry.ts - this.t0) / 1000);
    if (entry.type === 'output') {
      const text = this.decoder.decode(entry.data, { stream: true });
      if (text !== '') this.event(t, 'o', text);
      return;
    }
    const size = sizeSetBy(entry);
    if (size) this.event(t, 'r', `${size.cols}x${size.rows}`);
  }

  /** The lines made since the last call, each newline-terminated ('' when none). */
  take(): string {
    if (this.lines.length === 0) return '';
    const part = this.lines.join('\n') + '\n';
    this.lines = [];
    return part;
  }

  /** The rest of the recording (a character cut off at the end as U+FFFD), newline-terminated. */
  finish(): string {
    const tail = this.decoder.decode();
    if (tail !== '') this.event(this.lastT, 'o', tail);
    return this.take();
  }

  private event(t: number, code: 'o' | 'r', data: string): void {
    this.lastT = t;
    this.lines.push(JSON.stringify([t, code, data]));
  }
}

/** asciinema writes microsecond precision; fewer digits keep files small. */
function round6(t: number): number {
  return Math.round(t * 1e6) / 1e6;
}
