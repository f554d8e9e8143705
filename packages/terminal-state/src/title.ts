/**
 * The window title (OSC 0 / OSC 2), which a keyframe restores: observers that attach later (a
 * tmux client, a terminal tab) show the same title as those attached from the start.
 * xterm.js reports title changes through its public `onTitleChange` event and keeps no getter.
 */
import type { Terminal } from './xterm';

export interface TitleTracker {
  /** The last title set, or undefined when the program never set one. */
  readonly title: string | undefined;
}

export function trackTitle(term: Terminal): TitleTracker {
  const tracker: { title: string | undefined } = { title: undefined };
  term.onTitleChange((title) => (tracker.title = title));
  return tracker;
}

// C0, DEL and C1 controls: the OSC string must not end early (BEL, ESC, ST) in the client.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** OSC 2 with the title, or '' when none was ever set (a reset client has none either). */
export function titleSequence(title: string | undefined): string {
  return title === undefined ? '' : `\x1b]2;${title.replace(CONTROLS, '')}\x07`;
}
