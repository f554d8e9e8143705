/**
 * The Node load driver's recorder (loadtest/src/load/recorder.ts): its per-second series must hold
 * at the sizes the scenarios document (attach-storm at 200 VUs records well over 150k samples).
 */
import { Recorder } from '../../loadtest/src/load/recorder';

describe('Recorder', () => {
  it('builds the time series of 200k samples (no argument spread that overflows the stack)', () => {
    const rec = new Recorder();
    const n = 200_000;
    for (let i = 0; i < n; i++) {
      rec.trend('ptyws_attach_keyframe_ms', i % 50);
      rec.count('ptyws_samples{of:ptyws_attach_keyframe_ms}');
    }
    const series = rec.timeSeries();
    expect(series.length).toBeGreaterThan(0);
    series.forEach((p, i) => expect(p.t).toBe(i));
    const sum = (key: string): number => series.reduce((s, p) => s + ((p[key] as number | null) ?? 0), 0);
    expect(sum('ptyws_attach_keyframe_ms_per_s')).toBe(n);
    expect(sum('ptyws_samples{of:ptyws_attach_keyframe_ms}_per_s')).toBe(n);
  });

  it('fails a count>0 guard on a counter that never counted, and passes it once it has', () => {
    const rec = new Recorder();
    const guard = { 'ptyws_samples{of:ptyws_rejoin_keyframe_ms}': ['count>0'] };
    expect(rec.evaluate(guard, 1)[0]?.ok).toBe(false);
    rec.count('ptyws_samples{of:ptyws_rejoin_keyframe_ms}');
    expect(rec.evaluate(guard, 1)[0]).toMatchObject({ ok: true, actual: 1 });
  });
});
