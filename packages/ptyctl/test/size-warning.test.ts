/** SizeWarning: when an attached terminal is too small for the session's picture, and how often to say so. */
import { SizeWarning } from '../src/attach/size-warning';

describe('SizeWarning', () => {
  it('warns once per size pair, again after a resize, never while the picture fits', () => {
    const w = new SizeWarning();
    expect(w.check({ cols: 100, rows: 30 }, { cols: 80, rows: 24 })).toBeUndefined();
    expect(w.check({ cols: 60, rows: 30 }, { cols: 80, rows: 24 })).toMatch(
      /^the session is 80x24 but this terminal is 60x30: .*at least 80x24/,
    );
    expect(w.check({ cols: 60, rows: 30 }, { cols: 80, rows: 24 })).toBeUndefined();
    expect(w.check({ cols: 90, rows: 20 }, { cols: 80, rows: 24 })).toMatch(/this terminal is 90x20/);
    expect(w.check({ cols: 90, rows: 20 }, { cols: 90, rows: 20 })).toBeUndefined();
    // Too small again after fitting: said again.
    expect(w.check({ cols: 60, rows: 30 }, { cols: 80, rows: 24 })).toMatch(/this terminal is 60x30/);
  });

  it('says nothing while either size is unknown', () => {
    expect(new SizeWarning().check(undefined, { cols: 80, rows: 24 })).toBeUndefined();
    expect(new SizeWarning().check({ cols: 10, rows: 5 }, undefined)).toBeUndefined();
  });
});
