/** asciicast v2 (the transcript API's `format=asciicast`): parsing and searching a recording. */

export interface CastEvent {
  /** Seconds since the first frame. */
  t: number;
  kind: 'o' | 'r';
  data: string;
}

export interface Cast {
  width: number;
  height: number;
  events: CastEvent[];
  duration: number;
}

/** Parses the text; lines that are not events of a known kind are skipped, never fatal. */
export function parseCast(text: string): Cast {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  let width = 80;
  let height = 24;
  const events: CastEvent[] = [];
  lines.forEach((line, i) => {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return;
    }
    if (i === 0 && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const h = v as Record<string, unknown>;
      if (typeof h['width'] === 'number') width = h['width'];
      if (typeof h['height'] === 'number') height = h['height'];
      return;
    }
    if (!Array.isArray(v) || typeof v[0] !== 'number' || typeof v[2] !== 'string') return;
    if (v[1] === 'o' || v[1] === 'r') events.push({ t: v[0], kind: v[1], data: v[2] });
  });
  return { width, height, events, duration: events.at(-1)?.t ?? 0 };
}

/** `COLSxROWS` of a resize event. */
export function castSize(data: string): { cols: number; rows: number } | undefined {
  const m = /^(\d+)x(\d+)$/.exec(data);
  return m ? { cols: Number(m[1]), rows: Number(m[2]) } : undefined;
}

// Control sequences (CSI, OSC, two-byte escapes) and other C0 controls, for searching the text.
const CONTROLS = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]|[\x00-\x08\x0b-\x1f\x7f]/g;

/**
 * Indices of the output events where `query` (case-insensitive) ends, searching the output as
 * one text with control sequences removed, so a match split across events is found too.
 */
export function searchCast(cast: Cast, query: string): number[] {
  const q = query.toLowerCase();
  if (!q) return [];
  let text = '';
  const ends: number[] = []; // text length after each event
  cast.events.forEach((e) => {
    if (e.kind === 'o') text += e.data.replace(CONTROLS, '').toLowerCase();
    ends.push(text.length);
  });
  const hits: number[] = [];
  for (let at = text.indexOf(q); at >= 0; at = text.indexOf(q, at + q.length)) {
    const end = at + q.length;
    const idx = ends.findIndex((n) => n >= end);
    if (idx >= 0 && hits.at(-1) !== idx) hits.push(idx);
  }
  return hits;
}
