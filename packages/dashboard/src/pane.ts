/**
 * One terminal pane: an xterm.js terminal bound to one PtyClient on the binary subprotocol.
 *
 * Rendering rules (pty-rendering.md) and where they live here:
 * - reset before every (re)attach: attach() resets; the SDK's `reset` event (before its re-join
 *   after a reconnect) resets; Keyframes reset and write their snapshot.
 * - frames at or below a Keyframe's anchor are dropped by the SDK before they reach `output`.
 * - resizes go through ResizeScheduler (floor, debounce, two-frame stability), controllers only.
 * - ⟳ Resync: reset, drop the socket, attach again from scratch.
 * - a toast only when this operator's own role changes.
 */
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { PtyClient, type ConnectionState, type KeyframeEvent } from '@pty-ws/client';
import type { PtyRole } from '@pty-ws/protocol';
import type { Api, MemberCounts } from './api';
import { fitFontSize } from './fit-width';
import { KeyBar } from './key-bar';
import { PaneView } from './pane-view';
import { ResizeScheduler, sameSize, type Size } from './resize';
import { sharePanel } from './share-panel';
import { FONT_FAMILY, FONT_SIZE, THEME } from './terminal-style';
import type { PaneRef } from './url-state';

export interface PaneOptions {
  sessionId: string;
  instanceId: string;
  /** Shown in the header (argv joined). */
  command: string;
  /** Role asked for at join; undefined lets the server choose (controller when the token may). */
  role: PtyRole | undefined;
  /** `http(s)://host` the attach URL is derived from (the page's own origin). */
  origin: string;
  token: () => string | undefined;
  label: string;
  api: Api;
  /** What the token may do (`/api/v1/whoami`); undefined while unknown: offer, the server decides. */
  may: () => { control: boolean; admin: boolean } | undefined;
  /** This operator's role changed (not the first assignment). */
  onRoleChange: (pane: Pane, role: PtyRole, previous: PtyRole, reason: string | undefined) => void;
  /** Any role assignment, the first included (the address bar records it). */
  onRole: (pane: Pane) => void;
  /** The session had ended before this pane could join: its recording is what there is to show. */
  onEnded: (pane: Pane) => void;
  onClose: (pane: Pane) => void;
}

const EMPTY = new Uint8Array(0);

export class Pane {
  readonly view: PaneView;
  readonly term: Terminal;
  private readonly fit = new FitAddon();
  private readonly resizer: ResizeScheduler;
  private readonly observer: ResizeObserver;
  private client: PtyClient | undefined;
  private role: PtyRole | undefined;
  private requestedRole: PtyRole | undefined;
  private ended = false;
  private controllers = 0;
  private readonly keyBar: KeyBar;
  private share: HTMLElement | undefined;
  /** Times the terminal was reset (attach, reconnect, keyframe); read by the test probe. */
  resets = 0;

  constructor(private readonly opts: PaneOptions) {
    this.requestedRole = opts.role;
    this.view = new PaneView(opts.sessionId, opts.command, {
      requestControl: () => void this.changeRole('controller'),
      releaseControl: () => void this.changeRole('observer'),
      resync: () => void this.resync(),
      share: () => this.toggleShare(),
      fitToMe: () => this.fitToMe(),
      close: () => this.close(),
    });
    this.term = new Terminal({
      cursorBlink: false,
      disableStdin: true,
      fontFamily: FONT_FAMILY,
      fontSize: FONT_SIZE,
      scrollback: 5000,
      theme: THEME,
    });
    this.term.loadAddon(this.fit);
    // Input only ever leaves as a controller: an observer's pane never sends (and the server
    // would refuse it anyway).
    this.term.onData((data) => this.sendInput(this.keyBar.filter(data)));
    this.keyBar = new KeyBar({
      send: (data) => this.sendInput(data),
      applicationCursor: () => this.term.modes.applicationCursorKeysMode,
      focus: () => this.term.focus(),
    });
    this.view.root.append(this.keyBar.root);
    this.term.onBinary((data) => this.sendInput(Uint8Array.from(data, (c) => c.charCodeAt(0) & 0xff)));
    this.resizer = new ResizeScheduler({
      measure: () => this.proposedSize(),
      current: () => this.client?.size,
      send: (size) => this.role === 'controller' && this.client?.resize(size.cols, size.rows) === true,
    });
    this.observer = new ResizeObserver(() => {
      this.resizer.request();
      this.fitWidth();
      this.updateSizeHint();
    });
    this.term.onResize(() => this.fitWidth());
  }

  get sessionId(): string {
    return this.opts.sessionId;
  }
  get currentRole(): PtyRole | undefined {
    return this.role;
  }
  /** This pane as the address bar records it. */
  get ref(): PaneRef {
    return { sessionId: this.opts.sessionId, instanceId: this.opts.instanceId, role: this.role ?? this.requestedRole };
  }
  get state(): ConnectionState {
    return this.client?.state ?? 'closed';
  }
  get resizesSent(): number {
    return this.resizer.sent;
  }
  /** A resize may still be sent for the current box (read by the test probe). */
  get resizePending(): boolean {
    return this.resizer.pending;
  }
  get ptyClient(): PtyClient | undefined {
    return this.client;
  }
  /** Live counts from this pane's membership snapshot (the session list falls back on them). */
  get memberCounts(): MemberCounts | undefined {
    const m = this.client?.membership;
    return m ? { controllers: m.controllers.length, observers: m.observers.length } : undefined;
  }

  /** Opens the terminal in the (already attached) view and connects. */
  start(): Promise<void> {
    this.term.open(this.view.termHost);
    this.observer.observe(this.view.termHost);
    return this.attach();
  }

  refreshAbilities(): void {
    this.view.setMayControl(this.opts.may()?.control ?? true);
  }

  focus(): void {
    this.term.focus();
  }

  /** ⟳ Resync: reset, drop the socket, re-attach with a fresh join (and its Keyframe). */
  async resync(): Promise<void> {
    if (this.ended) return;
    if (this.role) this.requestedRole = this.role;
    const old = this.client;
    this.client = undefined;
    old?.close();
    await this.attach();
  }

  close(): void {
    this.resizer.dispose();
    this.observer.disconnect();
    const client = this.client;
    this.client = undefined;
    void client?.leave();
    this.term.dispose();
    this.view.root.remove();
    this.opts.onClose(this);
  }

  /** The visible screen as text, one string per row (for the test probe and debugging). */
  screen(): string[] {
    const buf = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.term.rows; y++) lines.push(buf.getLine(buf.baseY + y)?.translateToString(true) ?? '');
    return lines;
  }

  private async attach(): Promise<void> {
    this.reset();
    this.view.setStatus('connecting', 'Connecting…');
    const token = this.opts.token();
    const client = new PtyClient({
      baseUrl: this.opts.origin,
      instanceId: this.opts.instanceId,
      sessionId: this.opts.sessionId,
      mode: 'binary',
      tokenTransport: 'subprotocol',
      ...(token ? { token } : {}),
      clientLabel: this.opts.label,
      autoReconnect: { initialDelayMs: 250, maxDelayMs: 5000 },
    });
    this.client = client;
    this.wire(client);
    try {
      await client.connect();
      await client.join(this.requestedRole ? { role: this.requestedRole } : {});
    } catch (err) {
      client.close(); // a refused join leaves an open, useless socket behind
      if (this.client === client) this.fail(err);
      return;
    }
    if (this.client !== client) return;
    this.setLive();
    this.resizer.request();
  }

  /** Events of a replaced client (after Resync) are ignored: only the current one paints. */
  private wire(client: PtyClient): void {
    const mine = (): boolean => this.client === client;
    client.on('reset', () => mine() && this.reset());
    client.on('keyframe', (k) => mine() && this.applyKeyframe(k));
    client.on('output', (o) => mine() && this.term.write(o.data));
    client.on('resize', (r) => {
      if (!mine()) return;
      this.inBand(() => {
        this.term.resize(r.cols, r.rows);
        this.updateSizeHint();
      });
    });
    client.on('membership', (m) => {
      if (!mine()) return;
      // A controller left: the size goes back to a remaining one's (ours, if we control).
      const left = m.controllers.length < this.controllers;
      this.controllers = m.controllers.length;
      if (left && this.role === 'controller') this.resizer.request();
      console.debug('[pty-ws] membership', this.opts.sessionId, m);
      this.view.setMembers(m, client.clientId);
    });
    client.on('role', (r) => mine() && this.onRole(r.role, r.reason));
    client.on('reconnecting', (r) => {
      if (mine()) this.view.setStatus('reconnecting', `Reconnecting (attempt ${r.attempt})…`);
    });
    client.on('state', (s) => mine() && this.onState(s.state));
    client.on('replayLost', () => mine() && console.info('[pty-ws] replay window lost; repainting from keyframe'));
    client.on('closed', (c) => {
      if (!mine()) return;
      this.ended = true;
      this.view.setEnded();
      this.term.options.disableStdin = true;
      this.view.setStatus('ended', `Session ended${c.exitCode === null ? '' : ` (exit ${c.exitCode})`}`);
    });
    client.on('error', (e) => mine() && client.state === 'closed' && !this.ended && this.fail(e));
  }

  /**
   * Runs `op` in order with the output: xterm parses write() data asynchronously, and a direct
   * reset()/resize() would let output still queued from before it land after it (ghost output on
   * a freshly reset screen, old-geometry bytes on the new size). A write callback runs right after
   * the chunks queued before it and before any queued after it.
   */
  private inBand(op: () => void): void {
    this.term.write(EMPTY, op);
  }

  private reset(): void {
    this.resets += 1;
    this.inBand(() => this.term.reset());
  }

  private applyKeyframe(k: KeyframeEvent): void {
    this.resets += 1;
    this.inBand(() => {
      this.term.reset();
      if (k.cols > 0 && k.rows > 0 && (k.cols !== this.term.cols || k.rows !== this.term.rows)) {
        this.term.resize(k.cols, k.rows);
      }
      this.updateSizeHint();
    });
    this.term.write(k.snapshot);
  }

  private onState(state: ConnectionState): void {
    if (state === 'reconnecting') this.view.setStatus('reconnecting', 'Reconnecting…');
    else if (state === 'open' && this.client?.isJoined) this.setLive();
  }

  private setLive(): void {
    if (!this.ended) this.view.setStatus('live', 'Live');
  }

  private onRole(role: PtyRole, reason: string | undefined): void {
    const previous = this.role;
    this.role = role;
    this.requestedRole = role;
    this.view.setRole(role);
    this.view.setMayControl(this.opts.may()?.control ?? true);
    this.term.options.disableStdin = role !== 'controller';
    if (previous !== undefined && previous !== role) this.opts.onRoleChange(this, role, previous, reason);
    this.opts.onRole(this);
    if (role === 'controller') this.resizer.request();
    this.updateSizeHint();
    this.fitWidth();
  }

  private async changeRole(role: PtyRole): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.view.setBusy(true);
    this.view.setNotice(undefined);
    try {
      if (role === 'controller') await client.requestRole('controller');
      else await client.releaseRole();
    } catch (err) {
      // The stream is still live: its status stays; the refusal goes beside it.
      if (this.client === client) this.view.setNotice(`Role change refused: ${message(err)}`);
    } finally {
      this.view.setBusy(false);
    }
  }

  private sendInput(data: string | Uint8Array): void {
    if (this.role !== 'controller' || this.ended) return;
    this.client?.input(data);
  }

  private proposedSize(): Size | undefined {
    if (!this.view.termHost.isConnected) return undefined;
    const d = this.fit.proposeDimensions();
    return d && Number.isFinite(d.cols) && Number.isFinite(d.rows) ? { cols: d.cols, rows: d.rows } : undefined;
  }

  /** Says what happened and what to do; the socket's own error rarely says either. */
  private fail(err: unknown): void {
    this.view.setStatus('error', `Disconnected: ${message(err)}`);
    const id = this.opts.sessionId;
    void this.opts.api.sessionState(id).then((state) => {
      if (this.client !== undefined && this.client.state !== 'closed') return;
      if (state === 'unauthorized') {
        this.view.setStatus('error', 'Not signed in, or the token was refused: sign in, then press ⟳ Resync.');
      } else if (state === 'missing') {
        this.view.setStatus(
          'error',
          `No session ${id} on this server (or not for this token). Check the id, or pick it from the list.`,
        );
      } else if (state !== 'running' && state !== 'unknown') {
        this.ended = true;
        this.opts.onEnded(this);
      }
    });
  }

  /** A controller whose box differs from the session's size (another controller set it) is told so. */
  private updateSizeHint(): void {
    // The terminal has the session's size (only Resize and Keyframe frames change it).
    const size = { cols: this.term.cols, rows: this.term.rows };
    const box = this.proposedSize();
    const differs = this.role === 'controller' && !this.ended && box && !sameSize(size, box);
    this.view.setSizeHint(
      differs
        ? `The session is ${size.cols}×${size.rows} (another controller's size); this pane fits ${box.cols}×${box.rows}.`
        : undefined,
    );
  }

  private fitToMe(): void {
    const box = this.proposedSize();
    if (box && this.role === 'controller') this.client?.resize(box.cols, box.rows);
  }

  private toggleShare(): void {
    if (this.share) {
      this.share.remove();
      this.share = undefined;
      return;
    }
    const may = this.opts.may();
    this.share = sharePanel({ api: this.opts.api, ref: this.ref, mayMint: may?.admin }, () => this.toggleShare());
    this.view.termHost.before(this.share);
  }

  /**
   * Observers cannot resize the session: when its columns are wider than the box, the font
   * shrinks so a whole line fits (a phone watching an 80-column session needs no sideways scroll).
   */
  private fitWidth(): void {
    requestAnimationFrame(() => this.applyFitWidth());
  }

  private applyFitWidth(): void {
    const host = this.view.termHost;
    const screen = host.querySelector<HTMLElement>('.xterm-screen');
    if (!screen || !host.isConnected) return;
    const size = this.role === 'controller' ? FONT_SIZE : fitFontSize(this.term, screen, host, FONT_SIZE);
    if (size !== this.term.options.fontSize) this.term.options.fontSize = size;
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
