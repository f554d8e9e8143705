/**
 * A hand-written SVG line chart: two stacked panels over the same time axis (latency percentiles,
 * throughput). No chart library: a few polylines and labels are all a reader needs, the output is
 * deterministic (testable by parsing), and nothing has to run a browser or native canvas.
 */
export interface Line {
  name: string;
  color: string;
  /** y per x (seconds); null = no sample that second (the line breaks). */
  points: Array<{ x: number; y: number | null }>;
}

export interface Panel {
  title: string;
  unit: string;
  lines: Line[];
}

const W = 800;
const PANEL_H = 200;
const M = { left: 70, right: 150, top: 36, bottom: 34 };

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** 1, 2, 5 × 10^n at or above v: tick maxima people can read. */
function niceMax(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function fmt(v: number): string {
  if (v >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  return `${+v.toFixed(2)}`;
}

function panel(p: Panel, top: number, xMax: number): string {
  const plotW = W - M.left - M.right;
  const plotH = PANEL_H - M.top - M.bottom;
  const ys = p.lines.flatMap((l) => l.points.map((pt) => pt.y).filter((y): y is number => y !== null));
  const yMax = niceMax(Math.max(0, ...ys));
  const sx = (x: number) => M.left + (xMax > 0 ? (x / xMax) * plotW : 0);
  const sy = (y: number) => top + M.top + plotH - (y / yMax) * plotH;
  const out: string[] = [];
  out.push(`<g class="panel" data-title="${esc(p.title)}">`);
  out.push(`<text x="${M.left}" y="${top + 20}" font-size="14" font-weight="bold">${esc(p.title)}</text>`);
  for (let i = 0; i <= 4; i++) {
    const v = (yMax * i) / 4;
    const y = sy(v).toFixed(1);
    out.push(`<line x1="${M.left}" x2="${M.left + plotW}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
    out.push(`<text x="${M.left - 6}" y="${y}" font-size="11" text-anchor="end" dy="4">${fmt(v)}</text>`);
  }
  out.push(
    `<text x="14" y="${top + M.top + plotH / 2}" font-size="11" transform="rotate(-90 14 ${top + M.top + plotH / 2})" text-anchor="middle">${esc(p.unit)}</text>`,
  );
  const xStep = Math.max(1, Math.ceil(xMax / 10));
  for (let x = 0; x <= xMax; x += xStep) {
    out.push(
      `<text x="${sx(x).toFixed(1)}" y="${top + PANEL_H - M.bottom + 16}" font-size="11" text-anchor="middle">${x}s</text>`,
    );
  }
  out.push(`<rect x="${M.left}" y="${top + M.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`);
  if (p.lines.length === 0 || ys.length === 0) {
    out.push(
      `<text x="${M.left + plotW / 2}" y="${top + M.top + plotH / 2}" font-size="12" text-anchor="middle" fill="#888">no samples</text>`,
    );
  }
  p.lines.forEach((l, i) => {
    // A null breaks the line: consecutive points form one polyline segment each.
    const segments: string[][] = [[]];
    for (const pt of l.points) {
      if (pt.y === null) segments.push([]);
      else segments[segments.length - 1]!.push(`${sx(pt.x).toFixed(1)},${sy(pt.y).toFixed(1)}`);
    }
    for (const seg of segments.filter((s) => s.length > 0)) {
      const pts = seg.length === 1 ? [seg[0], seg[0]] : seg;
      out.push(
        `<polyline data-series="${esc(l.name)}" points="${pts.join(' ')}" fill="none" stroke="${l.color}" stroke-width="2"/>`,
      );
    }
    const ly = top + M.top + 14 + i * 18;
    out.push(
      `<line x1="${W - M.right + 12}" x2="${W - M.right + 32}" y1="${ly}" y2="${ly}" stroke="${l.color}" stroke-width="3"/>`,
    );
    out.push(`<text x="${W - M.right + 38}" y="${ly + 4}" font-size="12">${esc(l.name)}</text>`);
  });
  out.push('</g>');
  return out.join('\n');
}

export function lineChart(title: string, panels: Panel[]): string {
  const xMax = Math.max(1, ...panels.flatMap((p) => p.lines.flatMap((l) => l.points.map((pt) => pt.x))));
  const h = 30 + panels.length * PANEL_H;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${h}" viewBox="0 0 ${W} ${h}" font-family="sans-serif">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${W}" height="${h}" fill="#fff"/>`,
    `<text x="${W / 2}" y="20" font-size="15" text-anchor="middle">${esc(title)}</text>`,
    ...panels.map((p, i) => panel(p, 30 + i * PANEL_H, xMax)),
    '</svg>',
    '',
  ].join('\n');
}
