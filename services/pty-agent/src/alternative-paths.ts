import type { Config } from '@pty-ws/config';
import type { PathWatch } from './hosts/path-watch';
import type { SessionHosts } from './hosts/session-hosts';
import { SpawnerPtyHost } from './hosts/spawner-pty-host';
import { mirrorWorkerBuilt, onMirrorWorkerFailure } from './mirror/terminal-mirror';

/**
 * Says at start which of the agent's alternative paths are live: the stream relay and the mirror's
 * worker thread (the node-pty fallback is told by SessionHosts as it picks it). A helper asked for
 * and missing is a failure (`ptyws_helper_failures_total` and a warning); one turned off is an
 * info line. Returns what stops watching the mirror worker.
 */
export function announceAlternativePaths(
  config: Pick<Config, 'streamRelay' | 'mirrorThread'>,
  hosts: SessionHosts,
  watch: PathWatch,
  info: (fields: Record<string, unknown>, message: string) => void,
): () => void {
  if (hosts.native instanceof SpawnerPtyHost) {
    if (config.streamRelay === 'off')
      info({}, 'stream relay off (PTYWS_STREAM_RELAY=off): streaming sessions are read on the event loop');
    else if (!hosts.native.relayBinary)
      watch.failed(
        'stream_relay',
        'stream relay not built (no C compiler at build time): streaming sessions are read on the event loop',
      );
  }
  if (config.mirrorThread === 'main') return () => undefined;
  if (!mirrorWorkerBuilt()) {
    watch.failed(
      'mirror_worker',
      'mirror worker script not built (`npm run build`): keyframes are parsed on the event loop',
    );
    return () => undefined;
  }
  info({}, 'keyframes are parsed in a worker thread (PTYWS_MIRROR_THREAD=worker)');
  return onMirrorWorkerFailure((err) =>
    watch.failed('mirror_worker', "terminal mirror worker died: its sessions' keyframes fail until they end", {
      err: err.message,
    }),
  );
}
