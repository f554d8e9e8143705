/** Output for people (aligned tables, `key: value` lines) and for scripts (`--json`). */

export type Cell = string | number | boolean | null | undefined;

export interface Out {
  write(text: string): void;
}

const stdout: Out = { write: (text) => void process.stdout.write(text) };

function cell(v: Cell): string {
  return v === null || v === undefined || v === '' ? '-' : String(v);
}

/** Pretty-printed JSON, one document per invocation, so `jq` can read it. */
export function printJson(value: unknown, out: Out = stdout): void {
  out.write(JSON.stringify(value, null, 2) + '\n');
}

/** Columns padded to their widest cell; the last column is not padded (no trailing blanks). */
export function printTable(headers: string[], rows: Cell[][], out: Out = stdout): void {
  const text = [headers, ...rows.map((r) => r.map(cell))];
  const widths = headers.map((_, i) => Math.max(...text.map((r) => (r[i] ?? '').length)));
  for (const row of text) {
    const line = row.map((c, i) => (i === row.length - 1 ? c : (c ?? '').padEnd(widths[i] ?? 0))).join('  ');
    out.write(line + '\n');
  }
}

/** `key: value` lines with the values aligned. */
export function printFields(fields: [string, Cell][], out: Out = stdout): void {
  const width = Math.max(...fields.map(([k]) => k.length)) + 1;
  for (const [k, v] of fields) out.write(`${(k + ':').padEnd(width)} ${cell(v)}\n`);
}

/** argv as a shell would show it: words with blanks or quotes are single-quoted. */
export function shellWords(argv: readonly string[] | undefined): string | undefined {
  if (!argv || argv.length === 0) return undefined;
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
