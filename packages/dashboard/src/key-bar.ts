/**
 * The keys a phone's on-screen keyboard lacks (Esc, Ctrl, Tab, arrows), for controllers. Ctrl is
 * sticky: it applies to the next key typed, as in ttyd's and wetty's key bars.
 */
import { h } from './dom';

export interface KeyBarTarget {
  /** Sends bytes to the session as typed input. */
  send(data: string): void;
  /** DECCKM: arrows send `ESC O A` instead of `ESC [ A` (vim, less, htop switch it on). */
  applicationCursor(): boolean;
  focus(): void;
}

const ARROWS: ReadonlyArray<[string, string, string]> = [
  ['←', 'D', 'Left'],
  ['↑', 'A', 'Up'],
  ['↓', 'B', 'Down'],
  ['→', 'C', 'Right'],
];

/** Ctrl+key as the terminal sends it: letters and `@[\]^_` map to 0x00–0x1f, `?` to DEL. */
export function withCtrl(data: string): string {
  if (data.length !== 1) return data;
  if (data === '?') return '\x7f';
  const code = data.toUpperCase().charCodeAt(0);
  return code >= 0x40 && code <= 0x5f ? String.fromCharCode(code & 0x1f) : data;
}

export class KeyBar {
  readonly root: HTMLElement;
  private readonly ctrl: HTMLButtonElement;

  constructor(private readonly target: KeyBarTarget) {
    const key = (text: string, label: string, onPress: () => void): HTMLButtonElement => {
      const b = h('button', { type: 'button', class: 'btn key', 'aria-label': label, title: label }, text);
      // pointerdown + preventDefault keeps the terminal focused (and the phone keyboard up).
      b.addEventListener('pointerdown', (ev) => ev.preventDefault());
      b.addEventListener('click', () => {
        onPress();
        this.target.focus();
      });
      return b;
    };
    this.ctrl = key('Ctrl', 'Ctrl (applies to the next key)', () => this.setCtrl(!this.ctrlArmed));
    this.ctrl.setAttribute('aria-pressed', 'false');
    this.root = h(
      'div',
      { class: 'key-bar', role: 'toolbar', 'aria-label': 'Terminal keys' },
      key('Esc', 'Escape', () => this.press('\x1b')),
      this.ctrl,
      key('Tab', 'Tab', () => this.press('\t')),
      ...ARROWS.map(([text, final, name]) =>
        key(text, `Arrow ${name}`, () => this.press(`\x1b${this.target.applicationCursor() ? 'O' : '['}${final}`)),
      ),
    );
  }

  get ctrlArmed(): boolean {
    return this.ctrl.getAttribute('aria-pressed') === 'true';
  }

  /** Typed input passes through here: a sticky Ctrl turns the next key into its control code. */
  filter(data: string): string {
    if (!this.ctrlArmed) return data;
    this.setCtrl(false);
    return withCtrl(data);
  }

  private press(data: string): void {
    this.setCtrl(false);
    this.target.send(data);
  }

  private setCtrl(on: boolean): void {
    this.ctrl.setAttribute('aria-pressed', String(on));
  }
}
