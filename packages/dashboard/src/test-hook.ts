/**
 * `window.__ptyws`: a read-mostly handle for browser tests and for debugging from the devtools
 * console (panes with their xterm Terminal and PtyClient, toasts shown). It grants nothing the
 * page's own script could not already do.
 */
import type { Pane } from './pane';
import type { RecordingView } from './recording-view';

export interface DashboardProbe {
  readonly panes: readonly Pane[];
  readonly recordings: readonly RecordingView[];
  readonly toasts: readonly string[];
}

declare global {
  interface Window {
    __ptyws?: DashboardProbe;
  }
}

export function installProbe(probe: DashboardProbe): void {
  window.__ptyws = probe;
}
