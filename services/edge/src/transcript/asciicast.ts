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
 * Takes one part of a streamed answer; false when nobody reads any more (stop). The part is a view
 * of the writer's own buffer, written over once the promise resolves: the sink sends or copies it
 * before that (uWS's `write` does either at once).
 */
export type PartSink = (part: Uint8Array) => Promise<boolean>;

/** Bytes the writer gathers before it hands them to the sink (one part). */
export const PART_BYTES = 64 * 1024;
/**
 * Output bytes decoded and escaped at a time. Each step makes a few strings of at most 6 × this
 * many characters (a control byte escapes to `\u001b`), well under V8's large-object size, so they
 * die young in the nursery instead of piling up in the old generation until a full collection (a
 * 160 KiB frame as one string is a large object, and the recording's garbage then grew with the
 * time between full collections: hundreds of MB for one export on a loaded machine).
 */
const SLICE_BYTES = 8 * 1024;

/**
 * asciicast v2 (https://docs.asciinema.org/manual/asciicast/v2/): a JSON header line, then one
 * JSON array per event, `[seconds since the first frame, "o", text]` for output and
 * `[seconds, "r", "COLSxROWS"]` for a resize. Output is decoded as one UTF-8 stream, so a
 * character split across frames arrives whole; only PTY output streams are exported.
 *
 * The recording is written as UTF-8 into one buffer of PART_BYTES, handed to the sink whenever it
 * fills (awaiting its backpressure) and then reused: an export holds that buffer and the strings
 * of one slice whatever the frame or recording size.
 */
export class AsciicastWriter {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly buf = Buffer.allocUnsafe(PART_BYTES);
  private used = 0;
  private t0: number | undefined;
  /** Time of the last event line (0 before any). */
  private lastT = 0;
  private stopped = false;

  constructor(
    header: AsciicastHeader,
    private readonly sink: PartSink,
  ) {
    this.append(
      JSON.stringify({
        version: 2,
        width: header.width,
        height: header.height,
        timestamp: Math.floor(header.timestamp),
        ...(header.title !== undefined ? { title: header.title } : {}),
        env: { TERM: 'xterm-256color' },
      }) + '\n',
    );
  }

  /** Adds one frame's event, if it makes one; false once the sink stopped taking parts. */
  async add(entry: LogEntry): Promise<boolean> {
    this.t0 ??= entry.ts;
    const t = round6(Math.max(0, entry.ts - this.t0) / 1000);
    if (entry.type === 'output') return this.output(t, entry.data);
    const size = sizeSetBy(entry);
    if (size) await this.text(`${JSON.stringify([t, 'r', `${size.cols}x${size.rows}`])}\n`);
    return !this.stopped;
  }

  /** Hands out what is gathered (a page's end); false once the sink stopped taking parts. */
  async flush(): Promise<boolean> {
    if (this.used > 0 && !this.stopped) {
      const part = this.buf.subarray(0, this.used);
      this.used = 0;
      if (!(await this.sink(part))) this.stopped = true;
    }
    return !this.stopped;
  }

  /** The rest of the recording (a character cut off at the end as U+FFFD), then a flush. */
  async finish(): Promise<boolean> {
    const tail = this.decoder.decode();
    if (tail !== '') await this.text(`${JSON.stringify([this.lastT, 'o', tail])}\n`);
    return this.flush();
  }

  /** One output event, decoded and escaped a slice at a time; none when the bytes make no text yet. */
  private async output(t: number, data: Uint8Array): Promise<boolean> {
    let open = false;
    for (let at = 0; at < data.byteLength && !this.stopped; at += SLICE_BYTES) {
      const text = this.decoder.decode(data.subarray(at, at + SLICE_BYTES), { stream: true });
      if (text === '') continue;
      if (!open) {
        open = true;
        this.lastT = t;
        await this.text(`[${JSON.stringify(t)},"o","`);
      }
      await this.text(JSON.stringify(text).slice(1, -1));
    }
    if (open) await this.text('"]\n');
    return !this.stopped;
  }

  /** Appends `s` (at most PART_BYTES of UTF-8), handing out the buffer first when it would not fit. */
  private async text(s: string): Promise<void> {
    if (this.stopped) return;
    if (this.used + Buffer.byteLength(s, 'utf8') > PART_BYTES) await this.flush();
    this.append(s);
  }

  private append(s: string): void {
    this.used += this.buf.write(s, this.used, 'utf8');
  }
}

/** asciinema writes microsecond precision; fewer digits keep files small. */
function round6(t: number): number {
  return Math.round(t * 1e6) / 1e6;
}
