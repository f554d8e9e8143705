import { Conn, advance, moveFeed, newConn, type ConnFeed, type ConnPhase } from '../src/ws/connection';

/** The edge connection's phases only move forward, and the flags the hub reads follow them. */
const conn = () =>
  newConn({
    clientId: 'c',
    instanceId: 'i',
    sessionId: 's',
    principal: { id: 'p', scopes: new Set(['pty:control']) },
    binary: false,
    remoteAddress: '127.0.0.1',
  });

const flags = (c: ReturnType<typeof conn>) => ({
  phase: c.phase,
  open: c.open,
  attached: c.attached,
  member: c.member,
});

describe('connection phase', () => {
  it('greeting → ready → joined → leaving → closed, with open/attached/member derived', () => {
    const c = conn();
    expect(flags(c)).toEqual({ phase: 'greeting', open: true, attached: false, member: false });
    expect(advance(c, 'ready')).toBe(true);
    expect(flags(c)).toEqual({ phase: 'ready', open: true, attached: false, member: false });
    expect(advance(c, 'joined')).toBe(true);
    expect(flags(c)).toEqual({ phase: 'joined', open: true, attached: true, member: true });
    expect(advance(c, 'leaving')).toBe(true);
    // Still receives the session's frames (the final MembershipChanged), no longer a member.
    expect(flags(c)).toEqual({ phase: 'leaving', open: true, attached: true, member: false });
    expect(advance(c, 'closed')).toBe(true);
    expect(flags(c)).toEqual({ phase: 'closed', open: false, attached: false, member: false });
  });

  it('refuses every step back or sideways, changing nothing', () => {
    const steps: Array<[ConnPhase[], ConnPhase]> = [
      [['ready', 'joined'], 'ready'],
      [['ready', 'joined'], 'replaying'],
      [['ready', 'replaying'], 'joined'],
      [['ready', 'joined', 'leaving'], 'joined'],
      [['closed'], 'closed'],
      [['closed'], 'ready'],
      [[], 'joined'],
    ];
    for (const [path, to] of steps) {
      const c = conn();
      for (const p of path) expect(advance(c, p)).toBe(true);
      const before = flags(c);
      expect(advance(c, to)).toBe(false);
      expect(flags(c)).toEqual(before);
    }
  });
});

describe('connection feed', () => {
  it('moves behind → live → lagged → behind → live, and from lagged straight to live (a catch-up ends the lag)', () => {
    const c = conn();
    expect(c.feed).toBe('behind');
    for (const to of ['live', 'lagged', 'behind', 'live', 'lagged', 'live', 'behind'] as ConnFeed[]) {
      expect(moveFeed(c, to)).toBe(true);
      expect(c.feed).toBe(to);
    }
  });

  it('refuses staying where it is; a connection catching up (behind) can lag', () => {
    const c = conn();
    expect(moveFeed(c, 'behind')).toBe(false);
    expect(moveFeed(c, 'lagged')).toBe(true); // a direct send would have passed the backlog bound
    expect(moveFeed(c, 'lagged')).toBe(false);
    expect(moveFeed(c, 'behind')).toBe(true); // drained
    expect(c.feed).toBe('behind');
    moveFeed(c, 'live');
    expect(moveFeed(c, 'live')).toBe(false);
    expect(c.feed).toBe('live');
  });
});

describe('connection shape', () => {
  /**
   * The uWS socket's user data is `{ conn }` (upgrade.ts); uWS copies its own fields onto the
   * socket object, and a copy of every connection field put that object in V8's dictionary mode.
   * A connection is its own class instance with every field declared from the start, so fields
   * set later (role, limiter, timers, drain hooks) never change its shape.
   */
  it('is a Conn instance whose fields all exist from the start, optional ones undefined', () => {
    const c = conn();
    expect(c).toBeInstanceOf(Conn);
    const later = ['ws', 'role', 'label', 'tasks', 'backlogSince', 'joining', 'onDrain', 'flushFeed'];
    const more = ['serviceParameters', 'pingOutstandingSince', 'probeSentAt', 'heldFrames', 'limiter'];
    for (const key of [...later, ...more, 'closedJoinTimer']) {
      expect(Object.prototype.hasOwnProperty.call(c, key)).toBe(true);
      expect(c[key as keyof Conn]).toBeUndefined();
    }
    const before = Object.keys(c);
    c.role = 'observer';
    c.tasks = new Set(['t']);
    advance(c, 'ready');
    expect(Object.keys(c)).toEqual(before);
  });

  it('shares one settled PTY queue between new connections until a verb runs', () => {
    expect(conn().ptyQueue).toBe(conn().ptyQueue);
  });
});
