import { sessionLimitsWrapper } from '../src/hosts/session-limits';

const NONE = { maxProcesses: 0, maxMemoryBytes: 0, maxFileBytes: 0, maxOpenFiles: 0 };

describe('session limits wrapper', () => {
  it('leaves argv alone when no limit is set', () => {
    expect(sessionLimitsWrapper(NONE, () => undefined)(['/bin/sh', '-l'])).toEqual(['/bin/sh', '-l']);
  });

  it('starts the program under prlimit with the limits that are set', () => {
    const wrap = sessionLimitsWrapper({ ...NONE, maxProcesses: 64, maxFileBytes: 1024 }, () => '/usr/bin/prlimit');
    expect(wrap(['/bin/sh', '-c', 'x'])).toEqual([
      '/usr/bin/prlimit',
      '--nproc=64',
      '--fsize=1024',
      '--',
      '/bin/sh',
      '-c',
      'x',
    ]);
  });

  it('refuses to start without prlimit when a limit is set', () => {
    expect(() => sessionLimitsWrapper({ ...NONE, maxOpenFiles: 256 }, () => undefined)).toThrow(/prlimit/);
  });
});
