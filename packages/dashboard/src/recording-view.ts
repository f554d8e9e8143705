/**
 * A session's recording (its transcript as asciicast): play with a time slider and speed, search
 * with highlighted matches to jump between, download the .cast file. For closed sessions (whose
 * terminal has nothing live to show) and running ones alike.
 */
import { Terminal } from '@xterm/xterm';
import type { Api } from './api';
import { castSize, parseCast, searchCast, type Cast } from './asciicast';
import { h, shortId } from './dom';
import { fitFontSize } from './fit-width';
import { FONT_FAMILY, FONT_SIZE, THEME } from './terminal-style';

const SPEEDS = [0.5, 1, 2, 4, 16];
const TICK_MS = 50;

export class RecordingView {
  readonly root: HTMLElement;
  readonly term: Terminal;
  private readonly host: HTMLElement;
  private readonly slider: HTMLInputElement;
  private readonly clock: HTMLElement;
  private readonly playBtn: HTMLButtonElement;
  private readonly speed: HTMLSelectElement;
  private readonly query: HTMLInputElement;
  private readonly found: HTMLElement;
  private readonly status: HTMLElement;
  private cast: Cast | undefined;
  private text = '';
  /** Events written so far (the terminal shows events[0 .. next-1]). */
  private next = 0;
  private position = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private matches: number[] = [];
  private match = -1;
  private readonly resizeObserver: ResizeObserver;

  constructor(
    readonly sessionId: string,
    private readonly api: Api,
    onClose: (view: RecordingView) => void,
  ) {
    const name = shortId(sessionId);
    const btn = (text: string, label: string, onClick: () => void): HTMLButtonElement => {
      const b = h('button', { type: 'button', class: 'btn', 'aria-label': label, title: label }, text);
      b.addEventListener('click', onClick);
      return b;
    };
    this.status = h('span', { class: 'pane-status', role: 'status', 'data-status': 'connecting' }, 'Loading…');
    this.playBtn = btn('▶ Play', 'Play', () => this.togglePlay());
    this.slider = h('input', { type: 'range', min: 0, max: 0, step: 0.01, value: 0, 'aria-label': 'Position' });
    this.slider.addEventListener('input', () => this.seek(Number(this.slider.value)));
    this.clock = h('span', { class: 'mono rec-clock' }, '0:00.0 / 0:00.0');
    this.speed = h('select', { 'aria-label': 'Speed' });
    for (const s of SPEEDS) this.speed.append(h('option', { value: s, selected: s === 1 }, `${s}×`));
    this.query = h('input', { type: 'search', placeholder: 'Search the output', 'aria-label': 'Search the output' });
    this.found = h('span', { class: 'hint rec-found', role: 'status' });
    const searchForm = h(
      'form',
      { class: 'rec-search', role: 'search' },
      this.query,
      btn('▲', 'Previous match', () => this.jump(-1)),
      btn('▼', 'Next match', () => this.jump(1)),
      this.found,
    );
    searchForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.search();
    });
    this.host = h('div', { class: 'term-host', role: 'group', 'aria-label': `Recording of session ${name}` });
    this.root = h(
      'section',
      { class: 'pane pane--recording', 'data-session-id': sessionId, 'aria-label': `Recording of ${name}` },
      h(
        'header',
        { class: 'pane-header' },
        h('h2', { class: 'pane-title' }, h('span', { class: 'mono', title: sessionId }, name), ' recording'),
        h('div', { class: 'pane-meta' }, this.status),
        h(
          'div',
          { class: 'pane-actions' },
          btn('Download .cast', `Download the recording of ${name} (asciicast)`, () => this.download()),
          btn('✕', `Close the recording of ${name}`, () => {
            this.dispose();
            onClose(this);
          }),
        ),
      ),
      h('div', { class: 'rec-controls' }, this.playBtn, this.slider, this.clock, this.speed),
      searchForm,
      this.host,
    );
    this.term = new Terminal({
      disableStdin: true,
      fontFamily: FONT_FAMILY,
      fontSize: FONT_SIZE,
      scrollback: 5000,
      theme: THEME,
    });
    this.resizeObserver = new ResizeObserver(() => this.fitWidth());
  }

  /** Opens the terminal (the view is already in the page) and loads the recording. */
  async start(): Promise<void> {
    this.term.open(this.host);
    this.resizeObserver.observe(this.host);
    try {
      this.text = await this.api.asciicast(this.sessionId);
    } catch (err) {
      this.setStatus('error', `Could not load the recording: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    this.cast = parseCast(this.text);
    this.slider.max = String(this.cast.duration);
    this.setStatus('recording', `Recorded: ${this.cast.events.length} events, ${fmt(this.cast.duration)}`);
    this.seek(this.cast.duration); // the final screen first: what the session ended with
  }

  /** The visible screen as text (the test probe reads it). */
  screen(): string[] {
    const buf = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.term.rows; y++) lines.push(buf.getLine(buf.baseY + y)?.translateToString(true) ?? '');
    return lines;
  }

  dispose(): void {
    this.pause();
    this.resizeObserver.disconnect();
    this.term.dispose();
    this.root.remove();
  }

  /** Shows the recording as it was at `t` seconds. */
  seek(t: number, after?: () => void): void {
    const cast = this.cast;
    if (!cast) return;
    if (t < this.position || this.next === 0) {
      this.term.reset();
      this.term.resize(cast.width, cast.height);
      this.next = 0;
    }
    this.position = t;
    this.writeUntil((e) => e.t <= t, after);
  }

  private writeUntil(more: (e: { t: number }, i: number) => boolean, after?: () => void): void {
    const cast = this.cast;
    if (!cast) return;
    let chunk = '';
    const flush = (): void => {
      if (chunk) this.term.write(chunk);
      chunk = '';
    };
    while (this.next < cast.events.length && more(cast.events[this.next]!, this.next)) {
      const e = cast.events[this.next++]!;
      if (e.kind === 'o') chunk += e.data;
      const size = e.kind === 'r' ? castSize(e.data) : undefined;
      if (size) {
        flush();
        this.term.write('', () => this.term.resize(size.cols, size.rows));
      }
    }
    flush();
    this.term.write('', () => {
      this.fitWidth();
      after?.();
    });
    this.slider.value = String(this.position);
    this.clock.textContent = `${fmt(this.position)} / ${fmt(cast.duration)}`;
  }

  private togglePlay(): void {
    if (this.timer !== undefined) return this.pause();
    const cast = this.cast;
    if (!cast) return;
    if (this.position >= cast.duration) this.seek(0);
    this.playBtn.textContent = '⏸ Pause';
    this.timer = setInterval(() => {
      const next = Math.min(cast.duration, this.position + (TICK_MS / 1000) * Number(this.speed.value));
      this.seek(next);
      if (next >= cast.duration) this.pause();
    }, TICK_MS);
  }

  private pause(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.playBtn.textContent = '▶ Play';
  }

  private search(): void {
    if (!this.cast) return;
    this.matches = searchCast(this.cast, this.query.value.trim());
    this.match = -1;
    this.found.textContent = this.matches.length === 0 ? 'No match.' : `${this.matches.length} matches`;
    if (this.matches.length > 0) this.jump(1);
  }

  /** Moves to the next (1) or previous (-1) match: the screen as of that output, match selected. */
  private jump(dir: 1 | -1): void {
    const cast = this.cast;
    if (!cast || this.matches.length === 0) return;
    this.pause();
    this.match = (this.match + dir + this.matches.length) % this.matches.length;
    const idx = this.matches[this.match]!;
    this.found.textContent = `Match ${this.match + 1} of ${this.matches.length}`;
    this.term.reset();
    this.term.resize(cast.width, cast.height);
    this.next = 0;
    this.position = cast.events[idx]!.t;
    this.writeUntil(
      (_e, i) => i <= idx,
      () => this.highlight(this.query.value.trim()),
    );
  }

  /** Selects the last on-screen occurrence of `q` (the one just written) and scrolls to it. */
  private highlight(q: string): void {
    const buf = this.term.buffer.active;
    const needle = q.toLowerCase();
    for (let y = buf.length - 1; y >= 0; y--) {
      const line = buf.getLine(y)?.translateToString(true).toLowerCase() ?? '';
      const x = line.lastIndexOf(needle);
      if (x < 0) continue;
      this.term.select(x, y, q.length);
      this.term.scrollToLine(Math.max(0, y - Math.floor(this.term.rows / 2)));
      return;
    }
  }

  private download(): void {
    if (!this.text) return;
    const url = URL.createObjectURL(new Blob([this.text], { type: 'application/x-asciicast' }));
    const a = h('a', { href: url, download: `pty-ws-${this.sessionId}.cast` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  private setStatus(status: string, text: string): void {
    this.status.dataset['status'] = status;
    this.status.textContent = text;
    this.root.dataset['status'] = status;
  }

  private fitWidth(): void {
    const screen = this.host.querySelector<HTMLElement>('.xterm-screen');
    if (!screen || !this.host.isConnected) return;
    const size = fitFontSize(this.term, screen, this.host, FONT_SIZE);
    if (size !== this.term.options.fontSize) this.term.options.fontSize = size;
  }
}

/** m:ss.t — tenths, so a short recording's positions differ visibly. */
function fmt(seconds: number): string {
  const tenths = Math.floor(seconds * 10);
  const s = Math.floor(tenths / 10);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}.${tenths % 10}`;
}
