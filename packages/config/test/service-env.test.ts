import { SERVICE_ENV, SERVICE_ENV_PREFIX, missingServiceEnv, runsOnGlibc, serviceEnvWarning } from '../src';

describe('missingServiceEnv', () => {
  it('names each setting not in the environment, as NAME=value', () => {
    expect(SERVICE_ENV_PREFIX).toBe('GLIBC_TUNABLES=glibc.malloc.hugetlb=1');
    expect(missingServiceEnv({}, true)).toEqual([SERVICE_ENV_PREFIX]);
    expect(missingServiceEnv({ GLIBC_TUNABLES: '' }, true)).toEqual([SERVICE_ENV_PREFIX]);
    expect(missingServiceEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, true)).toEqual([SERVICE_ENV_PREFIX]);
  });

  it('counts a tunable given with another value, or among others, as given: the operator chose it', () => {
    expect(missingServiceEnv({ ...SERVICE_ENV }, true)).toEqual([]);
    expect(missingServiceEnv({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }, true)).toEqual([]);
    expect(missingServiceEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2' }, true)).toEqual([]);
  });

  it('asks nothing of a process whose C library is not glibc', () => {
    expect(missingServiceEnv({}, false)).toEqual([]);
    expect(serviceEnvWarning({}, false)).toBeUndefined();
  });

  it('knows this machine runs glibc (the CI machines are Debian)', () => {
    expect(runsOnGlibc()).toBe(true);
  });
});

describe('serviceEnvWarning', () => {
  it('names what is missing in a field and in the message', () => {
    expect(serviceEnvWarning({ ...SERVICE_ENV }, true)).toBeUndefined();
    const w = serviceEnvWarning({}, true);
    expect(w?.fields).toEqual({ missing_env: [SERVICE_ENV_PREFIX] });
    expect(w?.message).toContain(SERVICE_ENV_PREFIX);
  });
});
