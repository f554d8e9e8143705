import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Everything an agent keeps under PTYWS_STATE_DIR, in a directory of its own: a restarted agent
 * with the same id finds its multiplexer sockets again, and two agents on one machine never share.
 * Names are short because Unix socket paths are limited to 107 bytes.
 */
export interface AgentPaths {
  root: string;
  tmuxSocket: string;
  tmuxConf: string;
  tmuxRun: string;
  tmuxWrapper: string;
  screenDir: string;
  screenrc: string;
  screenRun: string;
  screenWrapper: string;
  shellDir: string;
}

/** The agent id when it is short, else a prefix plus a hash (ids may be 64 characters). */
function agentDirName(agentId: string): string {
  if (agentId.length <= 20) return agentId;
  const hash = createHash('sha256').update(agentId).digest('hex').slice(0, 7);
  return `${agentId.slice(0, 12)}-${hash}`;
}

export function agentPaths(stateDir: string, agentId: string): AgentPaths {
  const root = path.join(stateDir, agentDirName(agentId));
  return {
    root,
    tmuxSocket: path.join(root, 't'),
    tmuxConf: path.join(root, 'tmux.conf'),
    tmuxRun: path.join(root, 'run-t'),
    tmuxWrapper: path.join(root, 'tmux-run.sh'),
    screenDir: path.join(root, 's'),
    screenrc: path.join(root, 'screenrc'),
    screenRun: path.join(root, 'run-s'),
    screenWrapper: path.join(root, 'screen-run.sh'),
    shellDir: path.join(root, 'shell'),
  };
}

/** mkdir -p with mode 0700 on the leaf (screen refuses a SCREENDIR others can read). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Replaces a file in one step, so a concurrently starting agent or multiplexer never reads half of it. */
export function writeFileAtomic(file: string, content: string, mode = 0o600): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode });
  renameSync(tmp, file);
}
