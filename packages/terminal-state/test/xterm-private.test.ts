import { readFileSync } from 'node:fs';
import { guardParser } from '../src/parserGuard';
import { canSkipFromHere } from '../src/skipState';
import { createHeadlessTerminal, Terminal } from '../src/xterm';
import { missingPrivateMembers, PRIVATE_MEMBERS, readCoreState } from '../src/xterm-private';

/** The installed xterm.js, named in failures so an upgrade that moved a member says which one. */
const XTERM_VERSION = (
  JSON.parse(readFileSync(require.resolve('@xterm/headless/package.json'), 'utf8')) as { version: string }
).version;

/** Replaces one private member of a live terminal, as an xterm.js upgrade that moved it would. */
function breakMember(term: Terminal, path: string): void {
  const keys = path.split('.');
  const last = keys.pop() as string;
  let owner: unknown = term;
  for (const key of keys) owner = (owner as Record<string, unknown>)[key];
  Object.defineProperty(owner, last, { value: undefined, configurable: true });
}

describe('xterm.js private API (xterm-private.ts)', () => {
  it(`every private member the adapter uses exists in the installed xterm.js`, () => {
    const { term } = createHeadlessTerminal(80, 24, 100);
    term.write('\x1b[4:3m\x1b[58;5;3mx\x1b7\x1b[?1049h\x1b7\x1b[?1049l'); // touch the underline and saved-cursor paths
    // On failure the diff names the xterm.js version and each member that moved.
    expect({ xterm: XTERM_VERSION, missing: missingPrivateMembers(term) }).toEqual({
      xterm: XTERM_VERSION,
      missing: [],
    });
    expect(PRIVATE_MEMBERS.length).toBeGreaterThan(30);
    term.dispose();
  });

  it('reports a member an upgrade moved, by path and expected kind', () => {
    const term = new Terminal({ cols: 10, rows: 2, allowProposedApi: true });
    expect(missingPrivateMembers(term)).toEqual([]);
    breakMember(term, '_core._inputHandler._parser.currentState');
    expect(missingPrivateMembers(term)).toEqual(['_core._inputHandler._parser.currentState (number)']);
    // The skip gate then stays shut (the output stays exact) rather than guessing.
    expect(canSkipFromHere(term)).toBe(false);
    term.dispose();
  });

  it('a snapshot fails loudly when the underline getters it reads are gone', () => {
    const term = new Terminal({ cols: 10, rows: 2, allowProposedApi: true });
    expect(() => readCoreState(term)).not.toThrow();
    breakMember(term, '_core._inputHandler._curAttrData.getUnderlineStyle');
    expect(() => readCoreState(term)).toThrow(/_curAttrData\.getUnderlineStyle\(\)" not found/);
    term.dispose();
  });

  it('the parse guard refuses a terminal without the parse step, naming it', () => {
    const term = new Terminal({ cols: 10, rows: 2, allowProposedApi: true });
    breakMember(term, '_core._inputHandler.parse');
    expect(() => guardParser(term, () => undefined)).toThrow(/"_core\._inputHandler\.parse" not found/);
    term.dispose();
  });
});
