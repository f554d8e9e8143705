/** What a multiplexer itself shows, read with its own tools, to compare against keyframes. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { AgentPaths, ManagedBackend } from '@pty-ws/pty-agent';
import { captureScreen, newTerminal, writeAll } from '@pty-ws/testkit';
import { screenSockets } from './support';

const PATH_ENV = process.env['PATH'] ?? '/usr/bin:/bin';

/** Lines without trailing blanks, trailing empty lines dropped. */
export function trimLines(lines: string[]): string[] {
  const out = lines.map((l) => l.replace(/\s+$/, ''));
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** The screen a keyframe snapshot draws. */
export async function snapshotLines(base64: string, cols: number, rows: number): Promise<string[]> {
  const term = newTerminal(cols, rows);
  await writeAll(term, Buffer.from(base64, 'base64'));
  const lines = captureScreen(term).lines;
  term.dispose();
  return trimLines(lines);
}

export async function until<T>(
  what: string,
  get: () => Promise<T | undefined> | T | undefined,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The multiplexer's own view of a session's screen: `tmux capture-pane`, or a screen hardcopy
 * (written to `scratchDir`), on the agent's private socket.
 */
export async function multiplexerScreen(
  backend: ManagedBackend,
  paths: AgentPaths,
  id: string,
  scratchDir: string,
): Promise<string[]> {
  const env = { PATH: PATH_ENV, SCREENDIR: paths.screenDir };
  let text: string;
  if (backend === 'tmux') {
    text = execFileSync('tmux', ['-S', paths.tmuxSocket, 'capture-pane', '-p', '-t', `=${id}:`], { env }).toString();
  } else {
    const socket = screenSockets(paths).find((s) => s.endsWith(`.${id}`)) ?? id;
    const file = path.join(scratchDir, `${id}.hardcopy`);
    rmSync(file, { force: true });
    // -X is asynchronous: wait for the file, then for screen to finish writing it (a finished
    // hardcopy is never empty: it has a line per row).
    execFileSync('screen', ['-S', socket, '-p', '0', '-X', 'hardcopy', file], { env });
    let previous: string | undefined;
    text = await until('screen hardcopy', () => {
      const now = existsSync(file) ? readFileSync(file, 'utf8') : '';
      const done = now !== '' && now === previous;
      previous = now;
      return done ? now : undefined;
    });
  }
  return trimLines(text.split('\n'));
}
