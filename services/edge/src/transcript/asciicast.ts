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
 * character split across frames arrives whole; only PTY output streams are exported.
 */
export class AsciicastWriter {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly lines: string[] = [];
  private t0: number | undefined;

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
    const t = Math.max(0, entry.ts - this.t0) / 1000;
    if (entry.type === 'output') {
      const text = this.decoder.decode(entry.data, { stream: true });
      if (text !== '') this.lines.push(JSON.stringify([round6(t), 'o', text]));
      return;
    }
    const size = sizeSetBy(entry);
    if (size) this.lines.push(JSON.stringify([round6(t), 'r', `${size.cols}x${size.rows}`]));
  }

  /** The recording, newline-terminated (one line per event). */
  finish(): string {
    const tail = this.decoder.decode();
    if (tail !== '') this.lines.push(JSON.stringify([this.lastTime(), 'o', tail]));
    return this.lines.join('\n') + '\n';
  }

  private lastTime(): number {
    const last = this.lines.at(-1);
    if (!last || this.lines.length === 1) return 0;
    return (JSON.parse(last) as [number])[0];
  }
}

/** asciinema writes microsecond precision; fewer digits keep files small. */
function round6(t: number): number {
  return Math.round(t * 1e6) / 1e6;
}
