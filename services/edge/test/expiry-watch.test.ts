import { ManualClock } from '@pty-ws/testkit';
import { ExpiryWatch } from '../src/ws/expiry-watch';

/** Token expiry of open connections on a manual clock: one timer per expiry instant, not per connection. */
interface Held {
  name: string;
  principal: { expiresAt?: number };
}

function setup() {
  const clock = new ManualClock();
  const ended: string[] = [];
  const watch = new ExpiryWatch<Held>((c) => {
    ended.push(c.name);
    watch.forget(c); // as the edge's close handler does during the goodbye
  }, clock);
  const held = (name: string, inMs?: number): Held => ({
    name,
    principal: inMs === undefined ? {} : { expiresAt: clock.now() + inMs },
  });
  return { clock, ended, watch, held };
}

describe('ExpiryWatch', () => {
  it("ends a token's connections at its expiry on one shared timer; another instant has its own", () => {
    const { clock, ended, watch, held } = setup();
    const a = held('a', 1000);
    const b = { name: 'b', principal: a.principal };
    const c = held('c', 2000);
    [a, b, c, held('forever')].forEach((x) => watch.watch(x));
    expect(clock.pendingCount).toBe(2);
    clock.advance(999);
    expect(ended).toEqual([]);
    clock.advance(1);
    expect(ended).toEqual(['a', 'b']);
    expect(clock.pendingCount).toBe(1);
    clock.advance(1000);
    expect(ended).toEqual(['a', 'b', 'c']);
    expect(clock.pendingCount).toBe(0);
  });

  it('skips a closed connection, and cancels the timer when the last one of its instant closes', () => {
    const { clock, ended, watch, held } = setup();
    const a = held('a', 1000);
    const b = { name: 'b', principal: a.principal };
    watch.watch(a);
    watch.watch(b);
    watch.forget(a);
    expect(clock.pendingCount).toBe(1);
    clock.advance(1000);
    expect(ended).toEqual(['b']);
    const c = held('c', 500);
    watch.watch(c);
    watch.watch(c); // watched twice: still one entry
    watch.forget(c);
    expect(clock.pendingCount).toBe(0);
    clock.advance(1000);
    expect(ended).toEqual(['b']);
  });

  it('ends an already expired connection at once, and waits past setTimeout’s ceiling in steps', () => {
    const { clock, ended, watch, held } = setup();
    watch.watch(held('late', 0));
    expect(ended).toEqual(['late']);
    const far = 2 ** 31 + 5000;
    watch.watch(held('far', far));
    clock.advance(2 ** 31 - 1);
    expect(ended).toEqual(['late']);
    expect(clock.pendingCount).toBe(1);
    clock.advance(far - (2 ** 31 - 1));
    expect(ended).toEqual(['late', 'far']);
    watch.dispose();
    expect(clock.pendingCount).toBe(0);
  });
});
