import { ConfigError } from '@pty-ws/config';
import { ClusterConfigError } from './cluster-config-error';

export interface RunningService {
  /** Orderly stop: drain sockets, release resources. */
  stop(): Promise<void>;
  /** After this long the process exits 1 even if stop() has not finished. */
  gracePeriodS: number;
  logger: { info(obj: object, msg: string): void };
}

/**
 * The process lifecycle shared by `npm run edge` and `npm run agent`: start, then on SIGINT or
 * SIGTERM stop once within the grace period (exit 0, or 1 when forced). A start failure is one line
 * on stderr, never a stack trace: exit 2 for bad configuration, 1 for anything else (an
 * unreachable NATS or Postgres names its URL in the message).
 */
export function runService(name: string, start: () => Promise<RunningService>): void {
  start().then(
    (service) => {
      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        service.logger.info({ signal }, `${name} shutting down`);
        setTimeout(() => process.exit(1), service.gracePeriodS * 1000).unref();
        await service.stop();
        process.exit(0);
      };
      process.on('SIGINT', () => void stop('SIGINT'));
      process.on('SIGTERM', () => void stop('SIGTERM'));
    },
    (err: unknown) => {
      const known = err instanceof ConfigError || err instanceof ClusterConfigError;
      process.stderr.write(`pty-ws ${name}: ${known ? '' : 'failed to start: '}${(err as Error).message}\n`);
      process.exit(known ? 2 : 1);
    },
  );
}
