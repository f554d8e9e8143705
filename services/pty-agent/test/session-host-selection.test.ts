import { BindingError, resolveHostSelection } from '@pty-ws/protocol';
import type { CreateSessionRequest } from '@pty-ws/ports';
import { buildSessionSpec, PROTECTED_ENV, sessionHostCapabilities } from '@pty-ws/pty-agent';
import { parseStatus } from '../src/hosts/status-files';

const full = sessionHostCapabilities(['tmux', 'screen']);
const nativeOnly = sessionHostCapabilities([]);

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof BindingError ? String(err.data?.['reason'] ?? err.message) : String(err);
  }
  return undefined;
}

describe('session host capabilities and pairs (binding §5.1.1)', () => {
  it('advertises managed only when a multiplexer is installed', () => {
    expect(full.supported_backends).toEqual(['native', 'tmux', 'screen']);
    expect(full.supported_classes).toEqual(['direct', 'managed']);
    expect(nativeOnly.supported_backends).toEqual(['native']);
    expect(nativeOnly.supported_classes).toEqual(['direct']);
  });

  it('resolves omitted fields and fails closed on everything else', () => {
    expect(resolveHostSelection(full, undefined, undefined)).toEqual({ backend: 'native', sessionClass: 'direct' });
    expect(resolveHostSelection(full, 'tmux', undefined)).toEqual({ backend: 'tmux', sessionClass: 'managed' });
    expect(reasonOf(() => resolveHostSelection(full, 'tmux', 'direct'))).toBe('session_class.not_implemented');
    expect(reasonOf(() => resolveHostSelection(full, 'native', 'managed'))).toBe('session_class.not_implemented');
    expect(reasonOf(() => resolveHostSelection(full, undefined, 'managed'))).toBe('session_class.not_implemented');
    expect(reasonOf(() => resolveHostSelection(full, 'zellij', 'managed'))).toBe('session_backend.not_implemented');
    expect(reasonOf(() => resolveHostSelection(nativeOnly, 'tmux', undefined))).toBe('session_backend.not_implemented');
  });
});

describe('session env policy', () => {
  const defaults = { shell: '/bin/sh', defaultCols: 80, defaultRows: 24 };
  const req = (env: Record<string, string>): CreateSessionRequest => ({
    instanceId: 'i',
    argv: ['/bin/sh'],
    env,
    cwd: '/tmp',
  });

  it('refuses protected variables unless PTYWS_ALLOW_ENV_OVERRIDE lists them; PATH is settable', () => {
    for (const name of PROTECTED_ENV) {
      expect(reasonOf(() => buildSessionSpec(req({ [name]: 'x' }), defaults, full))).toMatch(/may not be set/);
    }
    // Issue 13: these were accepted; every LD_* and DYLD_* is refused, listed or not.
    for (const name of [
      'PROMPT_COMMAND',
      'PYTHONSTARTUP',
      'PERL5OPT',
      'GCONV_PATH',
      'LD_DEBUG',
      'LD_BIND_NOW',
      'DYLD_INSERT_LIBRARIES',
    ]) {
      expect(reasonOf(() => buildSessionSpec(req({ [name]: 'x' }), defaults, full))).toMatch(/may not be set/);
    }
    expect(buildSessionSpec(req({ PS1: '$ ' }), defaults, full).env['PS1']).toBe('$ ');
    const allowed = buildSessionSpec(
      req({ LD_LIBRARY_PATH: '/opt/lib' }),
      { ...defaults, allowEnvOverride: ['LD_LIBRARY_PATH'] },
      full,
    );
    expect(allowed.env['LD_LIBRARY_PATH']).toBe('/opt/lib');
    expect(buildSessionSpec(req({ PATH: '/opt/bin:/usr/bin' }), defaults, full).env['PATH']).toBe('/opt/bin:/usr/bin');
  });

  it('refuses what makes a later program run a command: prompts with $(…), git/less/python hooks', () => {
    for (const name of ['GIT_SSH_COMMAND', 'LESSOPEN', 'PYTHONWARNINGS', 'GIT_CONFIG_KEY_0', 'EDITOR', 'PAGER']) {
      expect(reasonOf(() => buildSessionSpec(req({ [name]: 'x' }), defaults, full))).toMatch(/may not be set/);
    }
    for (const ps1 of ['$(touch /tmp/x)', '`id`', '${x:=$(id)}', '$[1]', '\\044(id)']) {
      expect(reasonOf(() => buildSessionSpec(req({ PS1: ps1 }), defaults, full))).toMatch(/shell would run it/);
      expect(reasonOf(() => buildSessionSpec(req({ PROMPT: ps1 }), defaults, full))).toMatch(/shell would run it/);
    }
    for (const ps1 of ['$ ', '\\u@\\h:\\w\\$ ', '%n@%m %~ %# ', '$HOME> ']) {
      expect(buildSessionSpec(req({ PS1: ps1 }), defaults, full).env['PS1']).toBe(ps1);
    }
  });

  it('PTYWS_SESSION_ENV_ALLOW: only the listed names, protected ones still need PTYWS_ALLOW_ENV_OVERRIDE', () => {
    const allowOnly = { ...defaults, envAllow: ['PS1', 'LANG', 'LD_PRELOAD'] };
    expect(buildSessionSpec(req({ PS1: '$ ', LANG: 'C.UTF-8' }), allowOnly, full).env['LANG']).toBe('C.UTF-8');
    expect(reasonOf(() => buildSessionSpec(req({ FOO: '1' }), allowOnly, full))).toMatch(
      /not in this service's allowed/,
    );
    expect(reasonOf(() => buildSessionSpec(req({ PATH: '/bin' }), allowOnly, full))).toMatch(/not in this service's/);
    expect(reasonOf(() => buildSessionSpec(req({ LD_PRELOAD: '/x.so' }), allowOnly, full))).toMatch(/may not be set/);
  });

  it('a session user: its HOME, USER and LOGNAME; its home as the default cwd, or / when it has none', () => {
    const login = { HOME: '/nonexistent', USER: 'nobody', LOGNAME: 'nobody' };
    const spec = buildSessionSpec({ instanceId: 'i', argv: ['/bin/sh'] }, { ...defaults, login }, full);
    expect(spec.env).toMatchObject(login);
    expect(spec.cwd).toBe('/');
    const withHome = buildSessionSpec(
      { instanceId: 'i', argv: ['/bin/sh'] },
      { ...defaults, login: { ...login, HOME: '/tmp' } },
      full,
    );
    expect(withHome.cwd).toBe('/tmp');
  });

  it('records the task executor, default process', () => {
    expect(buildSessionSpec(req({}), defaults, full).taskExecutor).toBe('process');
    expect(buildSessionSpec({ ...req({}), taskExecutor: 'live_shell' }, defaults, full).taskExecutor).toBe(
      'live_shell',
    );
  });
});

describe('multiplexer status files', () => {
  it.each([
    ['status=7 signal=', { exitCode: 7, signal: null }],
    ['status= signal=15', { exitCode: null, signal: 15 }],
    ['status=0 signal=\n', { exitCode: 0, signal: null }],
  ])('%j', (text, exit) => {
    expect(parseStatus(text)).toEqual(exit);
  });
});
