import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { findExecutable } from './executables';

/**
 * Who sessions' programs run as (PTYWS_SESSION_USER): an unprivileged user that can read nothing
 * of the service (its state dir and archives are 0700/0600, its /proc files are root's or not
 * dumpable). Programs are started through util-linux `setpriv`, which sets the ids and the
 * supplementary groups between fork and exec; Node's own `uid`/`gid` spawn options cannot set a
 * user's supplementary groups (libuv clears them).
 */
export interface SessionIdentity {
  uid: number;
  gid: number;
  /** The passwd name, when the user has an entry: its supplementary groups are set from it. */
  name?: string;
  /** The user's home (its passwd entry's; `/` for a bare uid). */
  home: string;
  /** `setpriv`'s path. */
  setpriv: string;
}

/** One passwd entry as `getent passwd` prints it: name:x:uid:gid:gecos:home:shell. */
interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

/** The passwd entry for a name or uid (through NSS, so LDAP/sssd users resolve too), or undefined. */
function lookupUser(key: string): PasswdEntry | undefined {
  let line: string;
  try {
    line = execFileSync('getent', ['passwd', key], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined; // exit 2: no such user
  }
  const [name, , uid, gid, , home] = line.trim().split('\n')[0]?.split(':') ?? [];
  if (!name || uid === undefined || gid === undefined) return undefined;
  return { name, uid: Number(uid), gid: Number(gid), home: home || '/' };
}

/** Resolves PTYWS_SESSION_USER (`name` or `uid[:gid]`); throws a clear error when it cannot be used. */
export function resolveSessionIdentity(spec: string, lookup = lookupUser): SessionIdentity {
  const setpriv = findExecutable('setpriv');
  if (!setpriv) throw new Error(`PTYWS_SESSION_USER=${spec} needs setpriv (util-linux) on PATH`);
  const numeric = /^(\d+)(?::(\d+))?$/.exec(spec);
  let identity: Omit<SessionIdentity, 'setpriv'>;
  if (numeric) {
    const uid = Number(numeric[1]);
    const entry = lookup(String(uid));
    const gid = numeric[2] !== undefined ? Number(numeric[2]) : (entry?.gid ?? uid);
    identity = entry ? { uid, gid, name: entry.name, home: entry.home } : { uid, gid, home: '/' };
  } else {
    const entry = lookup(spec);
    if (!entry) throw new Error(`PTYWS_SESSION_USER=${spec}: no such user on this host`);
    identity = { uid: entry.uid, gid: entry.gid, name: entry.name, home: entry.home };
  }
  if (identity.uid === 0 || identity.gid === 0)
    throw new Error(`PTYWS_SESSION_USER=${spec}: sessions may not run as root or with group 0`);
  return { ...identity, setpriv };
}

/** Whether this process may switch users: root, or CAP_SETUID and CAP_SETGID in its effective set. */
export function canSwitchUsers(): boolean {
  if (process.getuid?.() === 0) return true;
  try {
    const caps = /^CapEff:\s*([0-9a-f]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    const CAP_SETGID = 6n;
    const CAP_SETUID = 7n;
    const eff = BigInt(`0x${caps ?? '0'}`);
    return ((eff >> CAP_SETGID) & 1n) === 1n && ((eff >> CAP_SETUID) & 1n) === 1n;
  } catch {
    return false;
  }
}

/**
 * `file args` as a command that first becomes the session user: `setpriv` sets the real and
 * effective ids and the user's supplementary groups (none for a bare uid), then execs the program.
 * Without an identity, the command unchanged.
 */
export function asSessionUser(
  identity: SessionIdentity | undefined,
  file: string,
  args: readonly string[],
): { file: string; args: string[] } {
  if (!identity) return { file, args: [...args] };
  const groups = identity.name !== undefined ? '--init-groups' : '--clear-groups';
  return {
    file: identity.setpriv,
    args: [`--reuid=${identity.uid}`, `--regid=${identity.gid}`, groups, '--', file, ...args],
  };
}

/** The login variables of the session user: they replace the service's own in a session's environment. */
export function identityEnv(identity: SessionIdentity | undefined): Record<string, string> {
  if (!identity) return {};
  const name = identity.name ?? String(identity.uid);
  return { HOME: identity.home, USER: name, LOGNAME: name };
}

/**
 * The identity sessions run as, from PTYWS_SESSION_USER; undefined when they run as the agent's own
 * user, which the agent then says in one warning: a control token is that user's equal here.
 */
export function configuredSessionIdentity(
  sessionUser: string | undefined,
  warn: (fields: object, message: string) => void,
): SessionIdentity | undefined {
  const uid = process.getuid?.() ?? -1;
  const identity = sessionUser !== undefined ? resolveSessionIdentity(sessionUser) : undefined;
  if (identity && identity.uid !== uid) {
    if (!canSwitchUsers())
      throw new Error(
        `PTYWS_SESSION_USER=${sessionUser} needs the agent to run as root or with CAP_SETUID and CAP_SETGID (it runs as uid ${uid})`,
      );
    return identity;
  }
  warn(
    { uid, session_user: sessionUser ?? null },
    `sessions run as this service's own user (uid ${uid}): a pty:control token can do whatever that user can on this host, ` +
      "read the service's state, transcripts and secrets included; to separate them run the agent as root with PTYWS_SESSION_USER (SECURITY.md)",
  );
  return undefined;
}
