import { A2aError } from '@pty-ws/a2a';
import type { Disposable } from '@pty-ws/ports';
import { ExpiryWatch } from '../ws/expiry-watch';

/** Why a watched stream was ended. */
type EndReason = 'revoked' | 'expired';

/** One open stream: its signal aborts when the caller leaves or the token stops being valid. */
export interface WatchedStream {
  readonly signal: AbortSignal;
  /** Set once the token's revocation or expiry ended the stream. */
  readonly endedBy: EndReason | undefined;
  /** The stream is over (however it ended): stop watching it. */
  close(): void;
}

interface Entry {
  readonly principal: { readonly tokenId?: string; readonly expiresAt?: number };
  readonly controller: AbortController;
  endedBy: EndReason | undefined;
}

/**
 * A2A streams (SSE and gRPC server streams) by token, ended on the token's revocation or
 * expiry the way WebSockets are: a stream checks its token once, when it opens, and would
 * otherwise go on delivering task updates for as long as the task runs.
 */
export class StreamWatch implements Disposable {
  private readonly byToken = new Map<string, Set<Entry>>();
  private readonly expiry = new ExpiryWatch<Entry>((e) => this.end(e, 'expired'));

  /** Watches a stream of `principal`; `callerSignal` is the binding's (the client went away). */
  open(principal: Entry['principal'], callerSignal?: AbortSignal): WatchedStream {
    const entry: Entry = { principal, controller: new AbortController(), endedBy: undefined };
    const onCallerGone = () => entry.controller.abort();
    callerSignal?.addEventListener('abort', onCallerGone, { once: true });
    if (callerSignal?.aborted) entry.controller.abort();
    const tokenId = principal.tokenId;
    if (tokenId !== undefined) {
      const set = this.byToken.get(tokenId) ?? new Set<Entry>();
      set.add(entry);
      this.byToken.set(tokenId, set);
    }
    this.expiry.watch(entry);
    return {
      signal: entry.controller.signal,
      get endedBy() {
        return entry.endedBy;
      },
      close: () => {
        callerSignal?.removeEventListener('abort', onCallerGone);
        this.expiry.forget(entry);
        if (tokenId === undefined) return;
        const set = this.byToken.get(tokenId);
        set?.delete(entry);
        if (set?.size === 0) this.byToken.delete(tokenId);
      },
    };
  }

  /** The token was revoked (here or on another edge): its streams end now. */
  revoke(tokenId: string): void {
    for (const entry of [...(this.byToken.get(tokenId) ?? [])]) this.end(entry, 'revoked');
  }

  dispose(): void {
    this.expiry.dispose();
  }

  get size(): number {
    let n = 0;
    for (const set of this.byToken.values()) n += set.size;
    return n;
  }

  private end(entry: Entry, reason: EndReason): void {
    if (entry.endedBy !== undefined) return;
    entry.endedBy = reason;
    entry.controller.abort();
  }
}

/** The error a stream ended by its token ends with (the SSE error event, the gRPC status). */
export function endedStreamError(reason: EndReason): A2aError {
  return new A2aError('Unauthenticated', reason === 'revoked' ? 'the token was revoked' : 'the token expired');
}
