/**
 * Recordings in the dashboard, in headless Chromium against a real server: Open on a closed
 * session shows its transcript played back (not a blank terminal), with a time slider, search
 * that selects the match, and an asciicast download; admins can kill a running session and mint
 * tokens.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { createSession, http, isRecord, startTestServer, waitUntil, type TestServer } from '@pty-ws/testkit';
import { docsScreenshotPath, ensureDashboardBuilt, launchBrowser, watchPage, type Browser } from './harness';
import type { ProbeWindow } from './probe';

jest.setTimeout(60_000);

let server: TestServer;
let browser: Browser;
let page: Page;
let closed: string;
const errors: string[] = [];

const stateOf = async (id: string): Promise<unknown> => {
  const res = await http(server, 'GET', `/api/v1/sessions/${id}`);
  return isRecord(res.body) ? res.body['state'] : undefined;
};

/** The recording view's screen and selection, through the test probe. */
const recording = (): Promise<{ screen: string; selection: string } | undefined> =>
  page.evaluate(() => {
    const r = (window as ProbeWindow).__ptyws?.recordings[0];
    if (!r) return undefined;
    return { screen: r.screen().join('\n'), selection: r.term.getSelection() };
  });

async function waitScreen(re: RegExp, what: string): Promise<void> {
  await waitUntil(async () => re.test((await recording())?.screen ?? ''), 8000, what);
}

beforeAll(async () => {
  ensureDashboardBuilt();
  server = await startTestServer();
  const script = 'echo first-line; sleep 0.5; echo needle-here; sleep 0.5; echo last-line';
  closed = (await createSession(server, { argv: ['/bin/sh', '-c', script], cols: 80, rows: 24 })).session_id;
  await waitUntil(async () => (await stateOf(closed)) !== 'running', 10_000, 'the session to end');
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  errors.push(...watchPage(page).errors);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test('opening a closed session shows its recording, not a blank terminal', async () => {
  const hash = `token=${encodeURIComponent(server.adminToken)}&session=${closed}&instance=${server.instanceId}`;
  await page.goto(`${server.httpUrl}/#${hash}`);
  await waitScreen(/last-line/, 'the final screen of the recording');
  expect((await recording())?.screen).toMatch(/first-line[\s\S]*needle-here[\s\S]*last-line/);
  expect(await page.locator('.pane-status', { hasText: 'pty.join_session' }).count()).toBe(0);
  expect(await page.locator('.pane--recording .pane-status').textContent()).toMatch(/events/);
});

test('the slider rewinds, search jumps to the match and selects it', async () => {
  await page.getByLabel('Position').fill('0');
  await waitScreen(/first-line/, 'the start of the recording');
  expect((await recording())?.screen).not.toContain('last-line');

  await page.getByLabel('Search the output').fill('needle');
  await page.getByLabel('Search the output').press('Enter');
  await waitUntil(async () => (await recording())?.selection === 'needle', 8000, 'the match selected');
  expect(await page.locator('.rec-found').textContent()).toBe('Match 1 of 1');
  expect((await recording())?.screen).not.toContain('last-line');
  await page.screenshot({ path: docsScreenshotPath('recording.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('.pane--recording').scrollIntoViewIfNeeded();
  await page.screenshot({ path: docsScreenshotPath('phone-recording.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('downloads the recording as asciicast', async () => {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /^Download the recording/ }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`pty-ws-${closed}.cast`);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ version: 2, width: 80, height: 24 });
  expect(text).toContain('needle-here');
});

test('an admin kills a running session from the list (two presses)', async () => {
  const running = (await createSession(server, { argv: ['/bin/sh'] })).session_id;
  const item = page.locator(`.session-item[data-session-id="${running}"]`);
  await waitUntil(async () => (await item.count()) === 1, 8000, 'the session listed');
  await item.getByRole('button', { name: /^Kill session/ }).click();
  expect(await stateOf(running)).toBe('running');
  await item.getByRole('button', { name: /^Kill session/ }).click();
  await waitUntil(async () => (await stateOf(running)) !== 'running', 8000, 'the session killed');
  // A closed session offers its recording, not Control or Watch.
  await waitUntil(
    async () => (await item.getByRole('button', { name: /^Watch/ }).isVisible()) === false,
    8000,
    'Watch hidden',
  );
  expect(await item.getByRole('button', { name: /^Recording/ }).isVisible()).toBe(true);
});

test('an admin mints a token from the form, shown once', async () => {
  await page.locator('#mint-card summary').click();
  await page.getByLabel('May').selectOption('pty:observe');
  await page.getByLabel('Valid for (hours)').fill('1');
  await page.getByRole('button', { name: 'Mint token' }).click();
  const token = await page.locator('.minted-token').inputValue();
  expect(token).toMatch(/^ptyws_/);
  const who = await http(server, 'GET', '/api/v1/whoami', { token });
  expect(who.body).toMatchObject({ scopes: ['pty:observe'], may: { control: false } });
});

test('no page errors', () => {
  expect(errors.filter((e) => /Content Security Policy|pageerror/i.test(e))).toEqual([]);
});
