import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as flow from '../src/output-flow';

/**
 * The output flow's figures are read together: the edge's OutputFlow and the owner's ReaderPace
 * and stream relay import them from this one module. What one side assumes of the other is
 * checked here, so a change to one figure that breaks the rule fails before any socket does.
 */
describe('output flow constants', () => {
  it('the edge repeats a "behind" report at least twice within the lifetime the owner gives it', () => {
    expect(flow.PACE_REFRESH_MS * 2).toBeLessThan(flow.PACE_REPORT_TTL_MS);
    // The hold's poll is what repeats it, so it comes well within a refresh.
    expect(flow.PACE_POLL_MS).toBeLessThan(flow.PACE_REFRESH_MS);
  });

  it('marks in order: keeping up < drained < behind < the slow-consumer threshold', () => {
    expect(flow.PACE_LOW_SHARE).toBeLessThan(flow.LAG_DRAINED_SHARE);
    expect(flow.LAG_DRAINED_SHARE).toBeLessThan(flow.PACE_HIGH_SHARE);
    expect(flow.PACE_HIGH_SHARE).toBeLessThan(1);
  });

  it('waits as long for a stalled replay as for a stuck hold, and longer than a grace', () => {
    expect(flow.REPLAY_STALL_MS).toBe(flow.PACE_MAX_HOLD_MS);
    expect(flow.SLOW_GRACE_MS).toBeLessThan(flow.PACE_MAX_HOLD_MS);
    expect(flow.PACE_PROBE_GAP_MS).toBeLessThan(flow.PACE_PROBE_LATE_MS);
  });

  it('keeps back more than the owner can have in flight (4 MiB of appends), more still once it holds', () => {
    expect(flow.HELD_BYTES).toBeGreaterThan(4 * 1024 * 1024);
    expect(flow.HELD_BYTES_OWNER_HOLDING).toBeGreaterThan(flow.HELD_BYTES);
  });

  it('gives every constant a one-line reason', () => {
    const source = readFileSync(join(__dirname, '../src/output-flow.ts'), 'utf8').split('\n');
    const names = Object.keys(flow);
    expect(names.length).toBeGreaterThanOrEqual(15);
    for (const name of names) {
      const at = source.findIndex((line) => line.startsWith(`export const ${name} =`));
      expect({ name, reason: /^\/\*\* .+ \*\/$/.test(source[at - 1] ?? '') }).toEqual({ name, reason: true });
    }
  });
});
