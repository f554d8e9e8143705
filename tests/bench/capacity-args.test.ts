/** `npm run capacity`'s command line: profiles, `--only` (phase names and short forms), `--out`. */
import { CAPACITY_PHASES, CAPACITY_PROFILES, parseCapacityArgs } from '../../loadtest/src/capacity/profile';

describe('npm run capacity -- arguments', () => {
  it('runs every phase of the full profile by default', () => {
    expect(parseCapacityArgs([])).toEqual({ profile: CAPACITY_PROFILES.full, phases: [...CAPACITY_PHASES] });
  });

  it('--only picks phases by name or short name, in run order, once each', () => {
    expect(parseCapacityArgs(['--only', 'sockets']).phases).toEqual(['idle_sockets']);
    expect(parseCapacityArgs(['--quick', '--only', 'churn,sockets,idle_sockets,storm'])).toEqual({
      profile: CAPACITY_PROFILES.quick,
      phases: ['idle_sockets', 'attach_storm', 'churn'],
    });
  });

  it('refuses an unknown phase or a missing one, naming the phases', () => {
    expect(() => parseCapacityArgs(['--only', 'socket'])).toThrow(/unknown phase socket[\s\S]*phases: idle_sockets/);
    expect(() => parseCapacityArgs(['--only'])).toThrow(/--only needs a phase/);
    expect(() => parseCapacityArgs(['--bogus'])).toThrow(/unknown argument --bogus/);
  });
});
