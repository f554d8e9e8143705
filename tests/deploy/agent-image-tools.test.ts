/**
 * The agent image carries the programs its session hosts need: tmux and screen (managed
 * backends, advertised only when found on PATH) and zsh (a live-shell integration target), in
 * the final stage, where the agent runs — not only in a build stage.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DockerfileParser } from 'dockerfile-ast';

const ROOT = path.resolve(__dirname, '../..');
const text = fs.readFileSync(path.join(ROOT, 'services/pty-agent/Dockerfile'), 'utf8');
const df = DockerfileParser.parse(text);

test('the final stage installs tmux, screen and zsh from Debian', () => {
  const froms = df.getFROMs();
  const lastFrom = froms[froms.length - 1]!.getRange().start.line;
  const finalRuns = df
    .getInstructions()
    .filter((i) => i.getKeyword() === 'RUN' && i.getRange().start.line > lastFrom)
    .map((i) => i.getArgumentsContent() ?? '');
  const installs = finalRuns.filter((r) => /apt-get install/.test(r));
  for (const pkg of ['tmux', 'screen', 'zsh']) {
    expect([pkg, installs.some((r) => new RegExp(`apt-get install[^&]*\\b${pkg}\\b`).test(r))]).toEqual([pkg, true]);
  }
  // The apt lists are dropped in the same layer.
  expect(installs.every((r) => /rm -rf \/var\/lib\/apt\/lists/.test(r))).toBe(true);
});
