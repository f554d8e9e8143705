/**
 * Whose size the session has when several controllers share it: the one that typed (or resized)
 * most recently; when that one goes, the remaining controller active most recently. Observers
 * never resize.
 */
import { delay, http, is, joinSession, type TestClient, type TestServer } from '@pty-ws/testkit';
import { expectRequestError, jsonOf, shell, useServer } from './support';

interface Size {
  cols: number;
  rows: number;
}

const DESKTOP: Size = { cols: 100, rows: 30 };
const PHONE: Size = { cols: 45, rows: 33 };

/** The next Resize frame `c` receives after `from`, as a size. */
async function nextResize(c: TestClient, from: number): Promise<Size> {
  const p = jsonOf(await c.waitFor(is.kind('Resize'), 3000, from)).payload ?? {};
  return { cols: Number(p['cols']), rows: Number(p['rows']) };
}

/** The size the sessions API lists, once it is `want` (the registry is updated after the Resize). */
async function listedSize(sessionId: string, want: Size, server: TestServer): Promise<Size> {
  let size: Size = { cols: 0, rows: 0 };
  for (let i = 0; i < 60; i++) {
    const body = (await http(server, 'GET', `/api/v1/sessions/${sessionId}`)).body as Partial<Size>;
    size = { cols: Number(body.cols), rows: Number(body.rows) };
    if (size.cols === want.cols && size.rows === want.rows) break;
    await delay(50);
  }
  return size;
}

let asked = 0;

/**
 * What the program in the PTY sees: `stty size` typed by `c`, answered as "rows cols". Each call's
 * answer carries its own tag (expanded by the shell, so the echo does not match), since another
 * member's earlier answer may still be on its way to `c`.
 */
async function sttySize(c: TestClient): Promise<Size> {
  const tag = `SZ${++asked}_`;
  const from = c.mark();
  c.input(`stty size | sed "s/^/${tag}$((1))=/"\n`);
  const re = new RegExp(`${tag}1=(\\d+) (\\d+)`);
  const m = re.exec(await c.collectOutput(re, 3000, from)) as RegExpExecArray;
  return { rows: Number(m[1]), cols: Number(m[2]) };
}

describe('the session size follows the controller that typed most recently', () => {
  const ctx = useServer({ maxControllers: 3, maxObservers: 3 });

  /** A desktop controller (joined first, so the session takes its size) and a phone controller. */
  async function desktopAndPhone(): Promise<{ desktop: TestClient; phone: TestClient; sessionId: string }> {
    const sessionId = (await ctx().createSession(shell())).session_id;
    const desktop = await ctx().attach(sessionId);
    const f1 = await joinSession(desktop, { role: 'controller', client_label: 'desktop', ...DESKTOP });
    expect([f1.keyframe.snapshot_cols, f1.keyframe.snapshot_rows]).toEqual([DESKTOP.cols, DESKTOP.rows]);
    const phone = await ctx().attach(sessionId);
    const f2 = await joinSession(phone, { role: 'controller', client_label: 'phone', ...PHONE });
    expect(f2.roleAssigned.role).toBe('controller');
    // A later controller's join size does not resize the session by itself.
    expect([f2.keyframe.snapshot_cols, f2.keyframe.snapshot_rows]).toEqual([DESKTOP.cols, DESKTOP.rows]);
    return { desktop, phone, sessionId };
  }

  it("an explicit Resize applies at once; then the other controller types and the session takes that controller's size first", async () => {
    const { desktop, phone } = await desktopAndPhone();
    let from = desktop.mark();
    const phoneFrom = phone.mark();
    phone.send('pty.session_resize', PHONE);
    expect(await nextResize(desktop, from)).toEqual(PHONE);
    expect(await nextResize(phone, phoneFrom)).toEqual(PHONE);

    from = phone.mark();
    expect(await sttySize(desktop)).toEqual(DESKTOP);
    // Every member learns it from the log, the phone too.
    expect(await nextResize(phone, from)).toEqual(DESKTOP);

    // The phone types: the session is the phone's size again.
    from = desktop.mark();
    expect(await sttySize(phone)).toEqual(PHONE);
    expect(await nextResize(desktop, from)).toEqual(PHONE);
  });

  it('when the controller that typed last leaves, the session returns to the remaining controller’s size', async () => {
    const { desktop, phone, sessionId } = await desktopAndPhone();
    expect(await sttySize(desktop)).toEqual(DESKTOP);
    // The phone types last (its size applies first), then leaves.
    expect(await sttySize(phone)).toEqual(PHONE);
    expect(await listedSize(sessionId, PHONE, ctx().server)).toEqual(PHONE);
    const from = desktop.mark();
    phone.send('pty.leave_session', {});
    expect((await phone.closed).code).toBe(1000);
    expect(await nextResize(desktop, from)).toEqual(DESKTOP);
    expect(await sttySize(desktop)).toEqual(DESKTOP);
    expect(await listedSize(sessionId, DESKTOP, ctx().server)).toEqual(DESKTOP);
  });

  it('a controller that disconnects or gives up control hands the size back too', async () => {
    const { desktop, phone, sessionId } = await desktopAndPhone();
    const tablet = await ctx().attach(sessionId);
    await joinSession(tablet, { role: 'controller', client_label: 'tablet', cols: 70, rows: 20 });
    expect(await sttySize(desktop)).toEqual(DESKTOP);
    expect(await sttySize(phone)).toEqual(PHONE);
    expect(await sttySize(tablet)).toEqual({ cols: 70, rows: 20 });

    // The tablet releases control: the phone typed after the desktop, so its size comes back.
    let from = desktop.mark();
    tablet.send('pty.release_role', {});
    expect(await nextResize(desktop, from)).toEqual(PHONE);

    // The phone's connection drops: back to the desktop.
    from = desktop.mark();
    phone.terminate();
    expect(await nextResize(desktop, from)).toEqual(DESKTOP);
    expect(await sttySize(desktop)).toEqual(DESKTOP);
  });

  it("an observer's size never counts: it cannot resize, and the size goes back to a controller, not to it", async () => {
    const { desktop, phone, sessionId } = await desktopAndPhone();
    const resized = desktop.mark();
    phone.send('pty.session_resize', PHONE);
    expect(await nextResize(desktop, resized)).toEqual(PHONE);
    // Joined after the desktop last typed, with a size of its own.
    const observer = await ctx().attach(sessionId);
    const fo = await joinSession(observer, { role: 'observer', cols: 120, rows: 40 });
    expect(fo.roleAssigned.role).toBe('observer');
    expect([fo.keyframe.snapshot_cols, fo.keyframe.snapshot_rows]).toEqual([PHONE.cols, PHONE.rows]);
    await expectRequestError(
      observer,
      'pty.session_input',
      { data: Buffer.from('x').toString('base64') },
      'PERMISSION_DENIED',
    );
    await expectRequestError(observer, 'pty.session_resize', { cols: 120, rows: 40 }, 'PERMISSION_DENIED');

    const from = observer.mark();
    phone.send('pty.leave_session', {});
    expect(await nextResize(observer, from)).toEqual(DESKTOP);
    expect(await sttySize(desktop)).toEqual(DESKTOP);
    expect(observer.frames.slice(from).filter(is.kind('Resize'))).toHaveLength(1);
  });
});
