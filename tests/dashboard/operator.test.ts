/**
 * The dashboard keeps its promises to an operator, in headless Chromium against a real server:
 * open panes survive a reload and travel in links, the fitted terminal fits its box, a token is
 * offered only what it may do, messages say what happened, and phones get the terminal first with
 * a key bar. Takes the README's screenshots (packages/dashboard/docs/).
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
import { docsScreenshotPath, ensureDashboardBuilt, launchBrowser, watchPage, type Browser } from './harness';
import { screenOf, snap, typeInto, waitLive, type ProbeWindow } from './probe';

jest.setTimeout(90_000);

let server: TestServer;
let browser: Browser;
let shell: string; // bash, 100×30
let second: string; // another one, 80×24, opened through a pasted link
const errors: string[][] = [];

async function openPage(hash: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize(viewport);
  errors.push(watchPage(page).errors);
  await page.goto(`${server.httpUrl}/${hash ? `#${hash}` : ''}`);
  return page;
}

const adminHash = (): string => `token=${encodeURIComponent(server.adminToken)}`;
const text = async (page: Page, selector: string): Promise<string> =>
  (await page.locator(selector).first().textContent()) ?? '';

async function waitText(page: Page, selector: string, re: RegExp): Promise<void> {
  let last = '';
  await waitUntil(async () => re.test((last = await text(page, selector))), 10_000, `${selector} to match ${re}`).catch(
    () => {
      throw new Error(`${selector} never matched ${re}; last: ${JSON.stringify(last)}`);
    },
  );
}

beforeAll(async () => {
  ensureDashboardBuilt();
  server = await startTestServer();
  // bash, not dash: the key bar's arrows need line editing.
  const bash = ['/bin/bash', '--norc', '--noprofile'];
  shell = (await createSession(server, { argv: bash, cols: 100, rows: 30 })).session_id;
  second = (await createSession(server, { argv: bash, cols: 80, rows: 24 })).session_id;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test('a reload keeps the open panes and their roles; a pasted link opens its pane', async () => {
  const page = await openPage(adminHash());
  await page
    .locator(`.session-item[data-session-id="${shell}"]`)
    .getByRole('button', { name: /^Control/ })
    .click();
  await waitLive(page, 'controller');
  expect(new URL(page.url()).hash).toBe(`#session=${shell}&instance=${server.instanceId}&role=controller`);

  await page.reload();
  await waitLive(page, 'controller');
  expect((await snap(page))?.sessionId).toBe(shell);

  // Pasting a link into the same tab: hashchange opens its pane beside the one already open.
  await page.evaluate(
    ([id, instance]) => (window.location.hash = `#session=${id}&instance=${instance}&role=observer`),
    [second, server.instanceId],
  );
  await waitLive(page, 'observer', 1);
  expect((await snap(page, 1))?.sessionId).toBe(second);
  expect(new URL(page.url()).hash).toBe(
    `#session=${shell}&instance=${server.instanceId}&role=controller&session=${second}&instance=${server.instanceId}&role=observer`,
  );
  await page
    .locator('.pane')
    .nth(1)
    .getByRole('button', { name: /^Close the pane/ })
    .click();
  await waitUntil(async () => !new URL(page.url()).hash.includes(second), 5000, 'closed pane leaves the URL');
  await page.close();
});

test('copy link offers the pane link, and an admin mints an observe-only share link', async () => {
  const page = await openPage(`${adminHash()}&session=${shell}&instance=${server.instanceId}&role=controller`);
  await waitLive(page, 'controller');
  await page.getByRole('button', { name: /^Copy a link/ }).click();
  const plain = await page.locator('.share-link').inputValue();
  expect(plain).toBe(`${server.httpUrl}/#session=${shell}&instance=${server.instanceId}&role=controller`);
  await page.getByRole('button', { name: /observe-only link/ }).click();
  const share = await page.locator('.share-observe-link').inputValue();
  expect(share).toMatch(/#token=ptyws_[\w-]+&session=/);
  expect(share).toContain('role=observer');

  // The receiver (a fresh tab, no token of its own) watches read-only and is offered nothing else.
  const viewer = await browser.context.newPage();
  errors.push(watchPage(viewer).errors);
  await viewer.goto(share);
  await waitLive(viewer, 'observer');
  await waitText(viewer, '#token-abilities', /^Observe only$/);
  expect(await viewer.locator('.pane-request-btn').isVisible()).toBe(false);
  expect(await viewer.locator('#create-card').isVisible()).toBe(false);
  expect(await viewer.locator('.pane-status').first().textContent()).toBe('Live');
  await page.close();
  await viewer.close();
});

test('the fitted terminal fits its box at 1280×800: no row cut off', async () => {
  const page = await openPage(`${adminHash()}&session=${shell}&instance=${server.instanceId}&role=controller`);
  await waitLive(page, 'controller');
  // Wait for the controller's resize to settle on the box's size.
  await waitUntil(async () => ((await snap(page))?.resizesSent ?? 0) > 0, 5000, 'the fit resize');
  await delay(300);
  const m = await page.evaluate(() => {
    const host = document.querySelector('.term-host')!.getBoundingClientRect();
    const screen = document.querySelector('.xterm-screen')!.getBoundingClientRect();
    return { hostBottom: host.bottom, screenBottom: screen.bottom, hostRight: host.right, screenRight: screen.right };
  });
  expect(m.screenBottom).toBeLessThanOrEqual(m.hostBottom);
  expect(m.screenRight).toBeLessThanOrEqual(m.hostRight);
  await page.close();
});

test('a pane whose session another controller resized says so, offers "fit to me", and takes the size back when it leaves', async () => {
  const page = await openPage(`${adminHash()}&session=${shell}&instance=${server.instanceId}&role=controller`);
  await waitLive(page, 'controller');
  // The session has this pane's size and no resize of the pane's is still on its way.
  await waitUntil(
    async () =>
      !(await page.locator('.size-hint').isVisible()) &&
      (await page.evaluate(() => (window as ProbeWindow).__ptyws?.panes[0]?.resizePending === false)),
    5000,
    'the session fits the pane',
  );
  const mine = await snap(page);
  const other = await TestClient.connect(server.attachUrl(shell), { token: server.adminToken });
  await other.hello();
  await joinSession(other, { role: 'controller' });

  // Another controller (a phone) shrinks the session: the pane says so instead of staying silent.
  other.send('pty.session_resize', { cols: 45, rows: 20 });
  await waitUntil(async () => (await snap(page))?.cols === 45, 5000, 'the pane follows the session size');
  await waitUntil(async () => page.locator('.size-hint').isVisible(), 5000, 'size hint shown');
  expect(await text(page, '.size-hint')).toContain(`45×20`);
  const mark = other.mark();
  await page.getByRole('button', { name: /^Resize .* to this pane/ }).click();
  const back = sessionFrameOf(await other.waitFor(is.kind('Resize'), 5000, mark), 'Resize');
  expect(back).toMatchObject({ cols: mine?.cols, rows: mine?.rows });
  await waitUntil(async () => !(await page.locator('.size-hint').isVisible()), 5000, 'size hint gone');

  // It shrinks it again and leaves: the size goes back to the remaining controller's, unasked.
  other.send('pty.session_resize', { cols: 45, rows: 20 });
  await waitUntil(async () => (await snap(page))?.cols === 45, 5000, 'shrunk again');
  other.terminate();
  await waitUntil(async () => (await snap(page))?.cols === mine?.cols, 8000, 'the size back after the other left');
  expect((await snap(page))?.rows).toBe(mine?.rows);
  await page.close();
});

test('wide characters and emoji have a fallback font named in the terminal', async () => {
  const page = await openPage(`${adminHash()}&session=${shell}&instance=${server.instanceId}&role=observer`);
  await waitLive(page, 'observer');
  const family = (await snap(page))?.fontFamily ?? '';
  expect(family).toMatch(/Noto Color Emoji/);
  expect(family).toMatch(/CJK/);
  await page.close();
});

test('messages say what happened and what to do', async () => {
  // First visit without a token (with a link to a pane): asked to sign in, not told a token was refused.
  const page = await openPage(`session=${shell}&instance=${server.instanceId}&role=observer`);
  await waitText(page, '#status', /needs an access token/);
  expect(await text(page, '#status')).not.toMatch(/refused/);
  await waitText(page, '#sessions-status', /^Sign in to see the sessions\.$/);
  await waitText(page, '.pane-status', /sign in, then press ⟳ Resync/);

  // A wrong token is refused and not kept; no "Token saved" beside it.
  await page.getByLabel('Access token').fill('ptyws_wrong');
  await page.getByRole('button', { name: 'Use token' }).click();
  await waitText(page, '#status', /refused.*try again/);
  expect(await text(page, '#status')).not.toMatch(/saved/i);
  expect(await page.evaluate(() => sessionStorage.getItem('ptyws.token'))).toBeNull();

  // The right one signs in and says what it may do.
  await page.getByLabel('Access token').fill(server.adminToken);
  await page.getByRole('button', { name: 'Use token' }).click();
  await waitText(page, '#status', /Signed in/);
  await page.getByRole('button', { name: /^Resync/ }).click();
  await waitLive(page, 'observer');

  // An unknown session id: what is wrong and what to do, not a WebSocket close code.
  await page.evaluate(
    (instance) => (window.location.hash = `#session=00000000-0000-4000-8000-000000000000&instance=${instance}`),
    server.instanceId,
  );
  const unknown = '.pane[data-session-id="00000000-0000-4000-8000-000000000000"] .pane-status';
  await waitText(page, unknown, /No session 0{8}-.*Check the id/);
  expect(await text(page, unknown)).not.toMatch(/1006|binding_hello/);
  await page.close();
});

test('an observe-only token is shown as such; a refused action does not replace "Live"', async () => {
  const observe = await mintToken(server, { scopes: ['pty:observe'], ttl_seconds: 600 });
  const page = await openPage(
    `token=${encodeURIComponent(observe.token)}&session=${shell}&instance=${server.instanceId}`,
  );
  await waitLive(page, 'observer');
  await waitText(page, '#token-abilities', /^Observe only$/);
  expect(await page.locator('.pane-request-btn').isVisible()).toBe(false);
  expect(await page.locator('#create-card').isVisible()).toBe(false);
  // The server still refuses control if asked anyway (a stale button, a script): the status stays.
  await page.evaluate(() => document.querySelector<HTMLButtonElement>('.pane-request-btn')?.click());
  await waitText(page, '.pane-notice', /refused/);
  expect(await text(page, '.pane-status')).toBe('Live');
  expect(await page.locator('.pane').first().getAttribute('data-status')).toBe('live');
  await page.close();
});

test('desktop screenshot: a controller and an observer pane', async () => {
  const page = await openPage(
    `${adminHash()}&session=${shell}&instance=${server.instanceId}&role=controller&session=${second}&instance=${server.instanceId}&role=observer`,
  );
  await waitLive(page, 'controller');
  await waitLive(page, 'observer', 1);
  await typeInto(page, 'echo "hello from the dashboard"; ls /');
  await waitUntil(async () => /^hello from the dashboard$/m.test(await screenOf(page)), 5000, 'output on screen');
  await delay(400);
  await page.screenshot({ path: docsScreenshotPath('desktop.png') });
  await page.close();
});

test('a phone gets the terminal first, explicit roles, a key bar for controllers, fit-to-width for observers', async () => {
  const phone = { width: 390, height: 844 };
  const page = await openPage(adminHash(), phone);
  const item = page.locator(`.session-item[data-session-id="${second}"]`);
  // "Open" never takes control silently: the operator picks Control or Watch.
  await waitUntil(async () => (await item.count()) === 1, 5000, 'session listed');
  expect(await item.getByRole('button', { name: /^Open/ }).count()).toBe(0);
  await item.getByRole('button', { name: /^Watch/ }).click();
  await waitLive(page, 'observer');
  // Terminal first: the pane starts just below the top bar, above the session list.
  const paneTop = await page
    .locator('.pane')
    .first()
    .evaluate((el) => el.getBoundingClientRect().top);
  expect(paneTop).toBeLessThan(120);
  // The 80-column session fits the phone's width: no sideways scrolling to read a line.
  await waitUntil(
    async () =>
      page.evaluate(() => {
        const host = document.querySelector('.term-host')!.getBoundingClientRect();
        const screen = document.querySelector('.xterm-screen')!.getBoundingClientRect();
        return screen.right <= host.right + 0.5;
      }),
    5000,
    'observer terminal fits the width',
  );
  expect((await snap(page))?.cols).toBe(80);
  expect(await page.locator('.key-bar').first().isVisible()).toBe(false);
  await page.screenshot({ path: docsScreenshotPath('phone-observer.png') });
  await page
    .locator('.pane')
    .first()
    .getByRole('button', { name: /^Close the pane/ })
    .click();

  // A controller gets Esc, Ctrl, Tab and arrows; ← moves the cursor in the shell's line.
  await page
    .locator(`.session-item[data-session-id="${shell}"]`)
    .getByRole('button', { name: /^Control/ })
    .click();
  await waitLive(page, 'controller');
  await expect(page.locator('.key-bar').first().isVisible()).resolves.toBe(true);
  await page.locator('.term-host').first().click();
  await page.keyboard.type('echo a-b');
  await page.getByRole('button', { name: 'Arrow Left' }).click();
  await page.keyboard.type('X');
  await page.keyboard.press('Enter');
  await waitUntil(async () => /^a-Xb$/m.test(await screenOf(page)), 5000, 'arrow key moved the cursor');
  await page.evaluate(() => window.scrollTo(0, 0)); // clicks and typing may have scrolled the page
  await page.screenshot({ path: docsScreenshotPath('phone-controller.png') });
  await page.close();
});

test('no console errors or CSP violations', () => {
  const bad = errors.flat().filter((e) => /Content Security Policy|pageerror/i.test(e));
  expect(bad).toEqual([]);
});
