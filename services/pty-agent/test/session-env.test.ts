import { SERVICE_ENV } from '@pty-ws/config';
import { buildSessionEnv } from '../src/session/session-env';

describe('buildSessionEnv', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  });

  it("passes the agent's PATH and HOME on, but not the environment the service itself is tuned with", () => {
    Object.assign(process.env, SERVICE_ENV, { PATH: '/usr/bin:/bin', HOME: '/home/agent', PTYWS_ADMIN_TOKEN: 'x' });
    const env = buildSessionEnv(undefined);
    expect(env['PATH']).toBe('/usr/bin:/bin');
    expect(env['HOME']).toBe('/home/agent');
    // The sessions' programs keep their own malloc, and never see the agent's secrets.
    for (const k of [...Object.keys(SERVICE_ENV), 'PTYWS_ADMIN_TOKEN']) expect([k, env[k]]).toEqual([k, undefined]);
  });

  it('refuses GLIBC_TUNABLES from a client unless the operator allows it', () => {
    expect(() => buildSessionEnv({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' })).toThrow(/may not be set/);
    expect(
      buildSessionEnv({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' }, { allowEnvOverride: ['GLIBC_TUNABLES'] })[
        'GLIBC_TUNABLES'
      ],
    ).toBe('glibc.malloc.hugetlb=1');
  });
});
