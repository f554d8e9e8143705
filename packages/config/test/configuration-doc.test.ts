import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_VARIABLES, configurationMarkdown, type ConfigVariable } from '../src';

const DOC = path.join(__dirname, '..', '..', '..', 'docs', 'configuration.md');

/**
 * Markdown with table padding taken out: `npm run docs:config` writes the generated text as
 * prettier formats it, which pads table cells to line up (prettier itself cannot load in jest).
 */
function unpadded(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => {
      if (!line.startsWith('|')) return line;
      const cells = line.split(/(?<!\\)\|/).slice(1, -1);
      return `|${cells.map((c) => (/^\s*-+\s*$/.test(c) ? '---' : c.trim())).join('|')}|`;
    })
    .join('\n');
}

const generated = (variables?: readonly ConfigVariable[]): string => unpadded(configurationMarkdown(variables));

describe('docs/configuration.md', () => {
  it('is what the registry generates (run `npm run docs:config` after changing a variable)', () => {
    const expected = generated();
    const actual = unpadded(readFileSync(DOC, 'utf8'));
    if (actual !== expected) throw new Error('docs/configuration.md is out of date: run `npm run docs:config`');
  });

  it('lists every documented variable once, in the section of its tier and reader', () => {
    const markdown = configurationMarkdown();
    const sections = markdown.split(/^### /m).slice(1);
    for (const v of CONFIG_VARIABLES) {
      const holding = sections.filter((s) => s.includes(`| \`${v.name}\` |`));
      if (v.tier === 'test') {
        expect(holding).toEqual([]);
        expect(markdown).toContain(`- \`${v.name}\``);
        continue;
      }
      expect(holding).toHaveLength(1);
      const title = holding[0]!.split('\n')[0]!.toLowerCase();
      const reader = v.reader === 'both' ? 'both' : `the ${v.reader}`;
      expect(`${v.name}: ${title}`).toBe(`${v.name}: ${v.tier}: read by ${reader}`);
    }
  });

  it('gives tuning rows their reason, and only them', () => {
    const markdown = configurationMarkdown();
    const tuning = markdown.slice(markdown.indexOf('## Tuning'), markdown.indexOf('## For tests'));
    expect(tuning).toContain('| Variable | Default | When to change it | Description |');
    expect(markdown.slice(0, markdown.indexOf('## Tuning'))).not.toContain('When to change it');
    const relay = CONFIG_VARIABLES.find((v) => v.name === 'PTYWS_STREAM_RELAY')!;
    expect(tuning).toContain(`| \`PTYWS_STREAM_RELAY\` | \`on\` | ${relay.why!.replace(/\|/g, '\\|')} |`);
  });

  it('notices a stale file: a changed description no longer matches', () => {
    const changed = CONFIG_VARIABLES.map((v) => (v.name === 'PTYWS_PORT' ? { ...v, description: 'Changed.' } : v));
    expect(generated(changed)).not.toBe(unpadded(readFileSync(DOC, 'utf8')));
  });
});
