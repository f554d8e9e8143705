/** Fixtures for the session-host tests: a private state directory per file, real tmux/screen. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import type { Config } from '@pty-ws/config';
import type { SessionFramePayload } from '@pty-ws/protocol';
import { agentPaths, detectMultiplexers, type AgentPaths, type ManagedBackend } from '@pty-ws/pty-agent';
import { TestContext, is, sessionFrameOf, type Received, type TestClient } from '@pty-ws/testkit';

export const INSTALLED: ManagedBackend[] = Object.keys(detectMultiplexers()) as ManagedBackend[];

let counter = 0;

/**
 * A state directory and agent id of this test file's own, so its multiplexer sockets are unique
 * to the run; `cleanup` ends whatever multiplexer sessions are left and removes the directory.
 */
export function privateAgent(): { stateDir: string; agentId: string; paths: AgentPaths; cleanup(): void } {
  counter += 1;
  // Short: socket paths are limited to 107 bytes.
  const stateDir = mkdtempSync('/tmp/pwsh-');
  const agentId = `t${process.pid}-${counter}`;
  const paths = agentPaths(stateDir, agentId);
  return {
    stateDir,
    agentId,
    paths,
    cleanup() {
      if (INSTALLED.includes('tmux')) tryRun('tmux', ['-S', paths.tmuxSocket, 'kill-server']);
      if (INSTALLED.includes('screen')) {
        for (const s of screenSockets(paths)) tryRun('screen', ['-S', s, '-X', 'quit'], { SCREENDIR: paths.screenDir });
      }
      killLeftovers(stateDir);
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/**
 * Kills what the multiplexers of a private state directory left behind: every process whose
 * command line names the directory, and every process in the sessions those lead. Ending a screen
 * session hangs up only its window's session leader (the wrapper, screen-run.sh, which outlives a
 * hangup to record the status), so a program that never reads its terminal (`sleep`) survives the
 * session; its wrapper then waits for it forever.
 */
export function killLeftovers(stateDir: string): void {
  const procs = processes();
  const own = procs.find((p) => p.pid === process.pid)?.sid;
  // Sessions led by such a process (a multiplexer's window or pane), never the test's own.
  const sessions = new Set(procs.filter((p) => p.pid === p.sid && p.cmdline.includes(stateDir)).map((p) => p.sid));
  sessions.delete(own ?? -1);
  for (const p of procs) {
    if (p.pid === process.pid || p.sid === own || !(sessions.has(p.sid) || p.cmdline.includes(stateDir))) continue;
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** A live process as /proc shows it: its session id and NUL-separated command line. */
export interface ProcessInfo {
  pid: number;
  sid: number;
  cmdline: string;
}

/** Every live process (Linux /proc); zombies (dead, waiting to be reaped) are left out. */
export function processes(): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => {
      try {
        const cmdline = readFileSync(`/proc/${d}/cmdline`, 'utf8');
        // Fields after the command name in parentheses: state ppid pgrp session.
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        const [state, , , sid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return state === 'Z' ? undefined : { pid: Number(d), sid: Number(sid), cmdline };
      } catch {
        return undefined; // gone meanwhile
      }
    })
    .filter((p) => p !== undefined);
}

export function tryRun(file: string, args: string[], env: Record<string, string> = {}): string | undefined {
  try {
    return execFileSync(file, args, {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
      stdio: 'pipe',
    }).toString();
  } catch {
    return undefined;
  }
}

/** `<pid>.<name>` of the screen sessions in the agent's SCREENDIR. */
export function screenSockets(paths: AgentPaths): string[] {
  let text = '';
  try {
    text = execFileSync('screen', ['-ls'], {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', SCREENDIR: paths.screenDir },
    }).toString();
  } catch (err) {
    text = String((err as { stdout?: Buffer }).stdout ?? '');
  }
  return [...text.matchAll(/^\s+(\d+\.\S+)\s/gm)].map((m) => m[1] as string);
}

/** Names of the live multiplexer sessions of a backend on the agent's private socket. */
export function multiplexerSessions(backend: ManagedBackend, paths: AgentPaths): string[] {
  if (backend === 'screen') return screenSockets(paths).map((s) => s.slice(s.indexOf('.') + 1));
  const out = tryRun('tmux', ['-S', paths.tmuxSocket, 'list-sessions', '-F', '#{session_name}']);
  return out ? out.split('\n').filter((l) => l.length > 0) : [];
}

/** Starts a server in beforeAll and disposes it (then the agent's leftovers) in afterAll. */
export function useServer(overrides: Partial<Config> = {}, cleanup: () => void = () => {}): () => TestContext {
  let ctx: TestContext | undefined;
  beforeAll(async () => {
    ctx = await TestContext.start(overrides);
  });
  afterAll(async () => {
    await ctx?.dispose();
    cleanup();
  });
  return () => {
    if (!ctx) throw new Error('server not started');
    return ctx;
  };
}

type Closed = Extract<SessionFramePayload, { kind: 'Closed' }>;

export async function closedFrame(c: TestClient, timeoutMs = 15_000): Promise<Closed> {
  const r: Received = await c.waitFor(is.kind('Closed'), timeoutMs);
  return sessionFrameOf(r, 'Closed') as Closed;
}

/** An interactive /bin/sh with a small prompt and no login noise. */
export function shellBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    argv: ['/bin/sh'],
    env: { PS1: '$ ', PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    cols: 80,
    rows: 24,
    ...extra,
  };
}
