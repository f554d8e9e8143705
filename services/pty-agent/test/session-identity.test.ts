import { sessionCommand } from '../src/hosts/session-command';
import {
  asSessionUser,
  configuredSessionIdentity,
  identityEnv,
  resolveSessionIdentity,
} from '../src/hosts/session-identity';

/** A passwd lookup with two users (the real one goes through getent). */
const lookup = (key: string) =>
  ({
    alice: { name: 'alice', uid: 2001, gid: 2001, home: '/home/alice' },
    '2001': { name: 'alice', uid: 2001, gid: 2001, home: '/home/alice' },
    toor: { name: 'toor', uid: 0, gid: 0, home: '/root' },
  })[key];

describe('PTYWS_SESSION_USER', () => {
  it('resolves a name, a uid and uid:gid; a uid without a passwd entry gets / and no groups', () => {
    expect(resolveSessionIdentity('alice', lookup)).toMatchObject({
      uid: 2001,
      gid: 2001,
      name: 'alice',
      home: '/home/alice',
    });
    expect(resolveSessionIdentity('2001:50', lookup)).toMatchObject({ uid: 2001, gid: 50, name: 'alice' });
    const bare = resolveSessionIdentity('3003', lookup);
    expect(bare).toMatchObject({ uid: 3003, gid: 3003, home: '/' });
    expect(bare.name).toBeUndefined();
  });

  it('refuses an unknown name and root by any name', () => {
    expect(() => resolveSessionIdentity('mallory', lookup)).toThrow(/no such user/);
    expect(() => resolveSessionIdentity('toor', lookup)).toThrow(/may not run as root/);
    expect(() => resolveSessionIdentity('3003:0', lookup)).toThrow(/group 0/);
  });

  it('starts programs through setpriv: the passwd user with its groups, a bare uid with none', () => {
    const alice = resolveSessionIdentity('alice', lookup);
    const { file, args } = asSessionUser(alice, '/bin/sh', ['-c', 'id']);
    expect(file).toMatch(/\/setpriv$/);
    expect(args).toEqual(['--reuid=2001', '--regid=2001', '--init-groups', '--', '/bin/sh', '-c', 'id']);
    expect(asSessionUser(resolveSessionIdentity('3003', lookup), '/bin/sh', []).args).toContain('--clear-groups');
    expect(asSessionUser(undefined, '/bin/sh', ['-l'])).toEqual({ file: '/bin/sh', args: ['-l'] });
    expect(identityEnv(alice)).toEqual({ HOME: '/home/alice', USER: 'alice', LOGNAME: 'alice' });
    // close-fds first, so the program holds none of the agent's descriptors.
    const launched = sessionCommand(alice, '/bin/sh', ['-l'], '/x/close-fds');
    expect(launched.file).toBe('/x/close-fds');
    expect(launched.args.slice(1)).toEqual(['--reuid=2001', '--regid=2001', '--init-groups', '--', '/bin/sh', '-l']);
    expect(sessionCommand(undefined, '/bin/sh', ['-l'], '/x/close-fds')).toEqual({
      file: '/x/close-fds',
      args: ['/bin/sh', '-l'],
    });
  });

  it('unset: one warning that a control token is the service user’s equal; a real user resolves', () => {
    const warnings: string[] = [];
    expect(configuredSessionIdentity(undefined, (_f, m) => warnings.push(m))).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/pty:control token can do whatever that user can/);
    if (process.getuid?.() === 0) {
      expect(configuredSessionIdentity('nobody', (_f, m) => warnings.push(m))?.uid).toBe(65534);
      expect(warnings).toHaveLength(1);
    }
  });
});
