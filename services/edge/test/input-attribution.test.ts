import { ManualClock } from '@pty-ws/testkit';
import { InputAttribution } from '../src/audit/input-attribution';

type Report = { key: string; bytes: number; frames: number; from: number; to: number };

function setup() {
  const clock = new ManualClock();
  const reports: Report[] = [];
  const inputs = new InputAttribution<string>({ report: (key, c) => reports.push({ key, ...c }), clock });
  return { clock, reports, inputs, t0: clock.now() };
}

describe('InputAttribution', () => {
  it('sums input per connection and reports once per window, with the span it covers', () => {
    const { clock, reports, inputs, t0 } = setup();
    inputs.add('a', 3);
    clock.advance(200);
    inputs.add('a', 4);
    inputs.add('b', 1);
    clock.advance(799);
    expect(reports).toEqual([]);
    clock.advance(1);
    expect(reports).toEqual([
      { key: 'a', bytes: 7, frames: 2, from: t0, to: t0 + 1000 },
      { key: 'b', bytes: 1, frames: 1, from: t0 + 200, to: t0 + 1000 },
    ]);
    clock.advance(5000); // nothing typed: nothing reported
    expect(reports).toHaveLength(2);
  });

  it('flushes one connection at once (before its detach) and the rest when disposed', () => {
    const { clock, reports, inputs, t0 } = setup();
    inputs.add('a', 1);
    inputs.add('b', 2);
    clock.advance(300);
    inputs.flush('a');
    expect(reports).toEqual([{ key: 'a', bytes: 1, frames: 1, from: t0, to: t0 + 300 }]);
    inputs.dispose();
    expect(reports.map((r) => r.key)).toEqual(['a', 'b']);
    clock.advance(5000);
    expect(reports).toHaveLength(2);
  });
});
