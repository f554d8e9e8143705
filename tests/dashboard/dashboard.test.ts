/**
 * The web dashboard in real headless Chromium against a real server: attach and type, an observer
 * on the same screen, one resize per drag, reconnect after a network cut without ghost output,
 * ⟳ Resync, role toasts, and screenshots at desktop and phone sizes (artifacts/dashboard/).
 */
import type { Page } from 'playwright-core';
import {
  TestClient,
  createSession,
  delay,
  is,
  joinSession,
  mintToken,
  sessionFrameOf,
  startTestServer,
  waitUntil,
  type TestServer,
} from '@pty-ws/testkit';
import { DropProxy, ensureDashboardBuilt, launchBrowser, screenshotPath, watchPage, type Browser } from './harness';
import { screenOf, snap, toastsOf, typeInto, waitLive, type ProbeWindow } from './probe';

jest.setTimeout(60_000);

let server: TestServer;
let proxy: DropProxy;
let browser: Browser;
let raw: TestClient;
let sessionId: string;
let page1: Page; // admin, controller
let page2: Page; // pty:observe token
let page3: Page; // fresh attach, for comparisons
const consoleErrors: string[][] = [];

async function openPage(hash: string): Promise<Page> {
  const page = await browser.context.newPage();
  consoleErrors.push(watchPage(page).errors);
  await page.goto(`${proxy.url}/#${hash}`);
  return page;
}

async function sameScreens(a: Page, b: Page, what: string): Promise<string> {
  let last = '';
  await waitUntil(
    async () => {
      const [sa, sb] = [await screenOf(a), await screenOf(b)];
      last = `${sa}\n----\n${sb}`;
      return sa === sb && sa.length > 0;
    },
    8000,
    `${what}: screens equal\n${last}`,
  ).catch(() => {
    throw new Error(`${what}: screens differ\n${last}`);
  });
  return screenOf(a);
}

beforeAll(async () => {
  ensureDashboardBuilt();
  server = await startTestServer();
  sessionId = (await createSession(server, { argv: ['/bin/sh'], cols: 100, rows: 30 })).session_id;
  proxy = await DropProxy.start(server.node.port);
  browser = await launchBrowser();
  // A raw controller straight to the edge: counts Resize frames and types while the page is cut off.
  raw = await TestClient.connect(server.attachUrl(sessionId), { token: server.adminToken });
  await raw.hello();
  await joinSession(raw, { role: 'controller' });
});

afterAll(async () => {
  await browser?.close();
  raw?.terminate();
  await proxy?.close();
  await server?.stop();
});

test('attaches over the binary subprotocol, types `echo hi` and renders it', async () => {
  page1 = await openPage(`token=${encodeURIComponent(server.adminToken)}`);
  // The token left the address bar and lives in this tab's sessionStorage only.
  expect(page1.url()).not.toContain('token');
  expect(await page1.evaluate(() => sessionStorage.getItem('ptyws.token'))).toBe(server.adminToken);

  const item = page1.locator(`.session-item[data-session-id="${sessionId}"]`);
  await item.getByRole('button', { name: /^Control session/ }).click();
  await waitLive(page1, 'controller');
  await typeInto(page1, 'echo hi');
  await waitUntil(async () => (await screenOf(page1)).split('\n').includes('hi'), 5000, '"hi" on screen');
});

test('an observer page shows the same screen, is read-only and never sends input', async () => {
  const observe = await mintToken(server, { scopes: ['pty:observe'], ttl_seconds: 600, label: 'observer' });
  page2 = await openPage(
    `token=${encodeURIComponent(observe.token)}&session=${sessionId}&instance=${server.instanceId}`,
  );
  await waitLive(page2, 'observer');
  // The list shows the server's live counts (raw + page1 control, page2 observes), not a pane's.
  const members = page1.locator(`.session-item[data-session-id="${sessionId}"] .session-members`);
  await waitUntil(async () => (await members.textContent()) === '2 ctl · 1 obs', 8000, 'member counts 2/1');
  expect(await page2.locator('.pane').first().getAttribute('class')).toMatch(/pane--readonly/);
  expect(await page2.locator('.readonly-note').isVisible()).toBe(true);
  // REST needs pty:admin: the list explains instead of failing silently.
  await waitUntil(
    async () => /pty:admin/.test((await page2.locator('#sessions-status').textContent()) ?? ''),
    5000,
    'sessions status explains the 403',
  );

  const mark = raw.mark();
  await typeInto(page2, 'echo nope');
  await typeInto(page1, 'echo both');
  // Equal screens prove nothing until the command's output is on them: wait for it first.
  await waitUntil(async () => /^both$/m.test(await screenOf(page1)), 8000, 'controller screen shows the output');
  const screen = await sameScreens(page1, page2, 'controller vs observer');
  expect(screen).toMatch(/^both$/m);
  expect(screen).not.toContain('nope');
  expect(raw.outputSince(mark).toString('utf8')).not.toContain('nope');

  // An observe-only token is never offered control, and raises no toast.
  expect(await page2.locator('.pane-request-btn').isVisible()).toBe(false);
  expect(await toastsOf(page2)).toEqual([]);
  await page2.screenshot({ path: screenshotPath('observer-1280x720.png') });
});

test('a toast only when the operator’s own role changes', async () => {
  await page1.getByRole('button', { name: /^Release control/ }).click();
  await waitLive(page1, 'observer');
  await page1.getByRole('button', { name: /^Request control/ }).click();
  await waitLive(page1, 'controller');
  const toasts = await toastsOf(page1);
  expect(toasts).toHaveLength(2);
  expect(toasts[0]).toMatch(/now an observer/);
  expect(toasts[1]).toMatch(/now a controller/);
  // page2 saw two MembershipChanged for page1's moves: no toast for someone else's role.
  expect(await toastsOf(page2)).toEqual([]);
});

test('a drag (rapid viewport changes) produces exactly one resize', async () => {
  // Background tabs get no animation frames (the stability check waits for them): be the front tab.
  await page1.bringToFront();
  await raw.settle(300, 3000);
  const before = (await snap(page1))?.resizesSent ?? 0;
  const mark = raw.mark();
  for (const [width, height] of [
    [1200, 700],
    [1100, 690],
    [990, 600],
    [1150, 640],
    [1000, 660],
  ] as const) {
    await page1.setViewportSize({ width, height });
    await delay(10);
  }
  await delay(1500);
  const resizes = raw.frames.slice(mark).filter(is.kind('Resize'));
  expect(resizes).toHaveLength(1);
  expect((await snap(page1))?.resizesSent ?? 0).toBe(before + 1);
  const frame = sessionFrameOf(resizes[0]!, 'Resize')!;
  expect(frame.cols).toBeGreaterThanOrEqual(20);
  expect(frame.rows).toBeGreaterThanOrEqual(5);
  await waitUntil(
    async () => {
      const p = await snap(page1);
      return p?.cols === frame.cols && p.rows === frame.rows;
    },
    3000,
    'terminal follows the PTY size',
  );
  await page1.setViewportSize({ width: 1280, height: 720 });
});

test('reconnects after a network cut with replay_from and no ghost output', async () => {
  await delay(800); // let the viewport reset's resize land first
  const resetsBefore = (await snap(page1))?.resets ?? 0;
  proxy.refuse(true);
  proxy.dropAll();
  await waitUntil(
    async () => (await page1.locator('.pane').first().getAttribute('data-status')) === 'reconnecting',
    5000,
    'visible reconnecting state',
  );
  // Output the page misses while cut off: it must arrive through replay, exactly once.
  const mark = raw.mark();
  raw.input('echo during-cut\r');
  await raw.collectOutput(/during-cut\r?\n/, 5000, mark);
  await delay(300);
  proxy.refuse(false);

  await waitLive(page1, 'controller');
  await waitLive(page2, 'observer');
  expect((await snap(page1))?.resets ?? 0).toBeGreaterThan(resetsBefore);
  page3 = await openPage(
    `token=${encodeURIComponent(server.adminToken)}&session=${sessionId}&instance=${server.instanceId}&role=observer`,
  );
  await waitLive(page3, 'observer');
  const screen = await sameScreens(page1, page3, 'reconnected vs fresh attach');
  expect(screen.match(/^during-cut$/gm)).toHaveLength(1);
  await sameScreens(page2, page3, 'reconnected observer vs fresh attach');
});

test('⟳ Resync repaints a corrupted terminal from a fresh attach', async () => {
  await page1.evaluate(() => (window as ProbeWindow).__ptyws?.panes[0]?.term.write('\x1b[2J\x1b[HGHOST GHOST\r\n'));
  expect(await screenOf(page1)).toContain('GHOST');
  const resetsBefore = (await snap(page1))?.resets ?? 0;
  await page1.getByRole('button', { name: /^Resync/ }).click();
  await waitLive(page1, 'controller');
  expect((await snap(page1))?.resets ?? 0).toBeGreaterThan(resetsBefore);
  const screen = await sameScreens(page1, page3, 'resynced vs fresh attach');
  expect(screen).not.toContain('GHOST');
});

test('creates a session from the form, shows two panes, and lays out at 1280×720 and 390×844', async () => {
  await page1.locator('#create-card summary').click();
  await page1.getByLabel('Run').selectOption('command');
  await page1.getByLabel('Command or arguments').fill('echo created-by-form; exec /bin/sh');
  await page1.getByRole('button', { name: 'Create session' }).click();
  await waitLive(page1, 'controller', 1);
  await waitUntil(async () => /created-by-form/.test(await screenOf(page1, 1)), 5000, 'second pane output');
  await typeInto(page1, 'ls /', 0);
  await page1.setViewportSize({ width: 1280, height: 720 });
  await delay(600);
  await page1.screenshot({ path: screenshotPath('desktop-1280x720.png') });

  await page1.setViewportSize({ width: 390, height: 844 });
  await delay(600);
  // Nothing wider than the phone: no sideways scrolling of the page.
  expect(await page1.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page1.screenshot({ path: screenshotPath('phone-390x844.png') });
  await page1.screenshot({ path: screenshotPath('phone-390x844-full.png'), fullPage: true });
});

test('no Content-Security-Policy violations on any page', () => {
  const csp = consoleErrors.flat().filter((e) => /Content Security Policy/i.test(e));
  expect(csp).toEqual([]);
});
