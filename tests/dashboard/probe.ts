/** Reading the dashboard's `window.__ptyws` probe (packages/dashboard/src/test-hook.ts) from tests. */
import type { Page } from 'playwright-core';
import { waitUntil } from '@pty-ws/testkit';

export interface PaneProbe {
  sessionId: string;
  state: string;
  currentRole: string | undefined;
  resizesSent: number;
  resizePending: boolean;
  resets: number;
  term: { cols: number; rows: number; options: { fontFamily?: string; fontSize?: number }; write(data: string): void };
  screen(): string[];
}
export interface RecordingProbe {
  sessionId: string;
  term: { getSelection(): string };
  screen(): string[];
}
export interface Probe {
  panes: PaneProbe[];
  recordings: RecordingProbe[];
  toasts: string[];
}
export type ProbeWindow = Window & { __ptyws?: Probe };

export interface PaneSnapshot {
  sessionId: string;
  state: string;
  role: string | undefined;
  resizesSent: number;
  resets: number;
  cols: number;
  rows: number;
  fontFamily: string;
  fontSize: number;
  screen: string[];
}

/** Reads pane `index` of a page (evaluated through CDP, so the page's CSP does not apply). */
export const snap = (page: Page, index = 0): Promise<PaneSnapshot | undefined> =>
  page.evaluate((i) => {
    const p = (window as ProbeWindow).__ptyws?.panes[i];
    if (!p) return undefined;
    return {
      sessionId: p.sessionId,
      state: p.state,
      role: p.currentRole,
      resizesSent: p.resizesSent,
      resets: p.resets,
      cols: p.term.cols,
      rows: p.term.rows,
      fontFamily: p.term.options.fontFamily ?? '',
      fontSize: p.term.options.fontSize ?? 0,
      screen: p.screen(),
    };
  }, index);

export const screenOf = async (page: Page, index = 0): Promise<string> =>
  ((await snap(page, index))?.screen ?? [])
    .map((l) => l.trimEnd())
    .join('\n')
    .trimEnd();

export const toastsOf = (page: Page): Promise<string[]> =>
  page.evaluate(() => [...((window as ProbeWindow).__ptyws?.toasts ?? [])]);

export async function waitLive(page: Page, role: string, index = 0): Promise<void> {
  await waitUntil(
    async () =>
      (await snap(page, index))?.state === 'open' &&
      (await snap(page, index))?.role === role &&
      (await page.locator('.pane').nth(index).getAttribute('data-status')) === 'live',
    10_000,
    `pane ${index} live as ${role}`,
  );
}

export async function typeInto(page: Page, text: string, index = 0): Promise<void> {
  await page.bringToFront();
  await page.locator('.term-host').nth(index).click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}
