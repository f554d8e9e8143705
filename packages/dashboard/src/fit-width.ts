/** Fit-to-width for panes that cannot resize the session (observers): scale the font instead. */
import type { Terminal } from '@xterm/xterm';

/** Below this the text is unreadable anyway: scroll sideways instead. */
export const MIN_FONT_SIZE = 6;

/**
 * The font size (half-point steps, at most `max`) at which the terminal's columns fit the box's
 * width. Cell width grows linearly with the font size, so one measurement at the current size
 * gives the answer.
 */
export function fitFontSize(term: Terminal, screen: HTMLElement, host: HTMLElement, max: number): number {
  const current = term.options.fontSize ?? max;
  const width = screen.getBoundingClientRect().width;
  const xterm = screen.closest<HTMLElement>('.xterm');
  const style = xterm ? getComputedStyle(xterm) : undefined;
  const padding = style ? parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) : 0;
  const available = host.clientWidth - padding;
  if (width <= 0 || available <= 0) return current;
  const size = Math.floor(((current * available) / width) * 2) / 2;
  return Math.max(MIN_FONT_SIZE, Math.min(max, size));
}
