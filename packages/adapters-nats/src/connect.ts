import { connect, type NatsConnection, type NodeConnectionOptions } from '@nats-io/transport-node';
import { stacklessReplyDispatch } from './reply-dispatch';
import { batchWritesPerTurn } from './write-batching';

export type NatsConnectOptions = Omit<NodeConnectionOptions, 'servers' | 'name'>;

/**
 * Connects to NATS, or fails with an error that says which server (credentials stripped) and
 * what went wrong: the raw client errors ("timeout", "connection refused") name neither.
 *
 * `url` is one server or a comma-separated list (the nodes of a NATS cluster). The client gets the
 * list as an array: given the whole string it would take it as a single URL and dial only its
 * last server. It connects to any node that answers and, after a drop, goes on to another one;
 * it shuffles the list (its default), so connections spread over the nodes.
 *
 * Defaults suit a long-running service: a 5 s first-connect timeout so a wrong URL fails start-up
 * promptly, then unlimited reconnects so a NATS restart does not take the service down with it.
 * A ping every 5 s (two unanswered ones drop the connection) notices a node that vanished without
 * closing its sockets (a host or network loss) in about 10 s rather than the client's default 4 min.
 * No async stack traces: with them every request (each JetStream append, each keystroke sent to
 * its agent) builds an Error and a TimeoutError up front, just in case; in an agent profile of
 * 50 typing sessions over NATS those constructors took 16 % of the event loop.
 */
export async function connectNats(
  url: string,
  name: string,
  options: NatsConnectOptions = {},
): Promise<NatsConnection> {
  let nc: NatsConnection;
  try {
    nc = await connect({
      timeout: 5000,
      maxReconnectAttempts: -1,
      pingInterval: 5000,
      maxPingOut: 2,
      noAsyncTraces: true,
      ...options,
      servers: natsServers(url),
      name,
    });
  } catch (error) {
    throw new Error(`cannot connect to NATS at ${redactNatsUrl(url)} (as '${name}'): ${describe(error)}`, {
      cause: error,
    });
  }
  batchWritesPerTurn(nc);
  stacklessReplyDispatch(nc);
  return nc;
}

/** The servers of a comma-separated list, trimmed, empty entries dropped. */
export function natsServers(url: string): string[] {
  return url
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server.length > 0);
}

/** Drops `user:password@` (or a token) from each server of a comma-separated list. */
export function redactNatsUrl(url: string): string {
  return url
    .split(',')
    .map((server) => server.trim().replace(/^([a-z]+:\/\/)?[^@/]*@/i, (_m, scheme: string | undefined) => scheme ?? ''))
    .join(',');
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // The client's own message is terse ("timeout"); the socket error underneath says more.
  const cause =
    error.cause instanceof Error && error.cause.message !== error.message ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
