import { absoluteSgr, backgroundSgr, hasPenBeyondBackground, type AttributeSource } from '../src/sgr';
import { TerminalState, primeKeyframes } from '../src';

/** Attributes with each flag and colour mode drawn at random (seeded: the same cases each run). */
function randomAttributes(next: () => number): AttributeSource {
  const flag = (): number => (next() < 0.15 ? 1 : 0);
  const flags = Array.from({ length: 9 }, flag);
  const mode = (): 'default' | 'palette' | 'rgb' => (['default', 'palette', 'rgb'] as const)[Math.floor(next() * 3)]!;
  const fg = next() < 0.6 ? 'default' : mode();
  const bg = mode();
  const fgColor = Math.floor(next() * 256);
  const bgColor = Math.floor(next() * 256);
  return {
    isBold: () => flags[0]!,
    isDim: () => flags[1]!,
    isItalic: () => flags[2]!,
    isUnderline: () => flags[3]!,
    isBlink: () => flags[4]!,
    isInverse: () => flags[5]!,
    isInvisible: () => flags[6]!,
    isStrikethrough: () => flags[7]!,
    isOverline: () => flags[8]!,
    isFgRGB: () => fg === 'rgb',
    isBgRGB: () => bg === 'rgb',
    isFgPalette: () => fg === 'palette',
    isBgPalette: () => bg === 'palette',
    getFgColor: () => fgColor,
    getBgColor: () => bgColor,
  };
}

describe('hasPenBeyondBackground', () => {
  it('says exactly when absoluteSgr encodes more than backgroundSgr (5000 random pens)', () => {
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let beyond = 0;
    for (let i = 0; i < 5000; i++) {
      const a = randomAttributes(next);
      const expected = absoluteSgr(a) !== backgroundSgr(a);
      expect(hasPenBeyondBackground(a)).toBe(expected);
      if (expected) beyond++;
    }
    // Both answers occur often enough for the comparison to mean something.
    expect(beyond).toBeGreaterThan(500);
    expect(beyond).toBeLessThan(4500);
  });
});

describe('primeKeyframes', () => {
  it('runs the keyframe code to completion and leaves terminals made afterwards unaffected', async () => {
    await primeKeyframes();
    const t = new TerminalState({ cols: 20, rows: 3 });
    t.write(new TextEncoder().encode('hello'));
    const { snapshot, cols, rows } = await t.snapshot();
    t.dispose();
    expect({ cols, rows }).toEqual({ cols: 20, rows: 3 });
    expect(snapshot).toContain('hello');
  });
});
