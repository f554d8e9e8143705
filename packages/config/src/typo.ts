/** Edit distance counting an adjacent swap as one edit ("PROT" for "PORT" is one typo, not two). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

const PREFIX = 'PTYWS_';

/**
 * The known name an unknown one was most likely meant to be, if any: a small edit away, a
 * different case, or the known name with its unit missing or spelt out
 * (PTYWS_PING_INTERVAL, PTYWS_REPLAY_RETENTION_SECONDS).
 */
export function closestName(unknown: string, known: readonly string[]): string | undefined {
  const u = unknown.toUpperCase();
  const uBody = u.startsWith(PREFIX) ? u.slice(PREFIX.length) : u;
  let best: { name: string; score: number } | undefined;
  for (const name of known) {
    const body = name.slice(PREFIX.length);
    const distance = editDistance(uBody, body);
    const allowed = body.length >= 16 ? 3 : 2;
    const truncated = Math.min(uBody.length, body.length) >= 4 && (body.startsWith(uBody) || uBody.startsWith(body));
    if (distance > allowed && !truncated) continue;
    if (!best || distance < best.score) best = { name, score: distance };
  }
  return best?.name;
}
