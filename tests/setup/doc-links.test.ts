/**
 * Every relative link in the repository's Markdown resolves in a clone: the file or folder it
 * names exists, and a `#fragment` names a heading of the Markdown file it points at (GitHub's
 * anchor rules). Web links are not followed. The failure lists every broken link at once.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

/** Tracked Markdown files, and new ones not yet committed (a working tree under review). */
function markdownFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((f) => f && !f.includes('node_modules/') && existsSync(path.join(ROOT, f)))
    .sort();
}

/** The text with fenced code blocks blanked (line numbers kept) and inline code spans removed. */
function withoutCode(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const m = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length) fence = undefined;
      return '';
    }
    if (m) {
      fence = m[1];
      return '';
    }
    return line.replace(/(`+)[\s\S]*?\1/g, '');
  });
}

/** GitHub's heading anchor: lower case, punctuation dropped (not `-` or `_`), spaces to `-`. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text only
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Anchors of a Markdown file: its headings' slugs (repeats numbered -1, -2 …) and explicit ids. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length) fence = undefined;
      continue;
    }
    if (f) {
      fence = f[1];
      continue;
    }
    for (const id of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) out.add(id[1]!);
    const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Link targets of a Markdown file with their line numbers: inline links, images and reference definitions. */
export function links(markdown: string): Array<{ line: number; target: string }> {
  const out: Array<{ line: number; target: string }> = [];
  withoutCode(markdown).forEach((text, i) => {
    for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      out.push({ line: i + 1, target: m[1]! });
    const def = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(text);
    if (def) out.push({ line: i + 1, target: def[1]! });
    for (const m of text.matchAll(/<(?:a|img)\s[^>]*(?:href|src)="([^"]+)"/g)) out.push({ line: i + 1, target: m[1]! });
  });
  return out;
}

/** Why `target`, linked from `file` (repository-relative), does not resolve; undefined when it does. */
export function brokenReason(root: string, file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // http:, https:, mailto:
  const [rawPath, fragment] = target.split('#', 2) as [string, string | undefined];
  const relPath = decodeURIComponent(rawPath);
  const resolved = relPath === '' ? path.join(root, file) : path.resolve(path.join(root, path.dirname(file)), relPath);
  if (!resolved.startsWith(root + path.sep) && resolved !== root) return 'points outside the repository';
  if (!existsSync(resolved)) return 'no such file or folder';
  if (fragment === undefined || fragment === '') return undefined;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return undefined;
  if (/^L\d+(-L\d+)?$/.test(fragment)) return undefined; // a line of a file
  const names = anchors(readFileSync(resolved, 'utf8'));
  return names.has(decodeURIComponent(fragment).toLowerCase()) ? undefined : `no heading #${fragment}`;
}

describe('links in the Markdown files', () => {
  it('anchors follow GitHub: punctuation dropped, spaces to hyphens, repeats numbered', () => {
    expect(slug('Output waits for most readers')).toBe('output-waits-for-most-readers');
    expect(slug('A2A control plane (HTTP+JSON, JSON-RPC)')).toBe('a2a-control-plane-httpjson-json-rpc');
    expect(slug('Every WebSocket message goes through `sendMessage`')).toBe(
      'every-websocket-message-goes-through-sendmessage',
    );
    expect(slug('loadtest: `npm run bench`, `npm run loadtest`')).toBe('loadtest-npm-run-bench-npm-run-loadtest');
    expect([...anchors('# A\n## B\n## B\n```\n# not a heading\n```\n')]).toEqual(['a', 'b', 'b-1']);
  });

  it('finds a broken path and a broken anchor (the check can fail)', () => {
    const doc = 'see [x](./nope.md), [y](README.md#no-such-heading), [z](README.md) and `[c](code.md)`\n';
    const found = links(doc).map(({ target }) => [target, brokenReason(ROOT, 'README.md', target)]);
    expect(found).toEqual([
      ['./nope.md', 'no such file or folder'],
      ['README.md#no-such-heading', 'no heading #no-such-heading'],
      ['README.md', undefined],
    ]);
    expect(brokenReason(ROOT, 'README.md', '../shared/spec/README.md')).toBe('points outside the repository');
  });

  it('every relative path and #anchor exists', () => {
    const files = markdownFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'ARCHITECTURE.md', 'loadtest/README.md']));
    const broken: string[] = [];
    for (const file of files) {
      for (const { line, target } of links(readFileSync(path.join(ROOT, file), 'utf8'))) {
        const why = brokenReason(ROOT, file, target);
        if (why) broken.push(`${file}:${line}: ${target} (${why})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
