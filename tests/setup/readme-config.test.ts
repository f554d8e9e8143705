import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES } from '@pty-ws/config';

// README's configuration table is written by hand (a short pick, with one-line explanations);
// docs/configuration.md is generated. This keeps the pick honest: every variable it names exists,
// and none of the essential tier is missing from it.
const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const section = readme.slice(
  readme.indexOf('\n## Configuration\n'),
  readme.indexOf('\n## ', readme.indexOf('\n## Configuration\n') + 5),
);
const named = new Set([...section.matchAll(/`(PTYWS_[A-Z_]+)`/g)].map((m) => m[1]!));

describe("README's configuration table", () => {
  it('exists', () => {
    expect(section.length).toBeGreaterThan(100);
  });

  it('names only variables the service reads', () => {
    const known = new Set(CONFIG_VARIABLES.map((v) => v.name));
    expect([...named].filter((n) => !known.has(n))).toEqual([]);
  });

  it('names every variable of the essential tier', () => {
    const essential = CONFIG_VARIABLES.filter((v) => v.tier === 'essential').map((v) => v.name);
    expect(essential.length).toBeGreaterThan(5);
    expect(essential.filter((n) => !named.has(n))).toEqual([]);
  });
});
