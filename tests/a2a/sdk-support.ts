/**
 * The official A2A JS client (@a2a-js/sdk) as a user sets it up: given the host, it reads the
 * AgentCard and picks a transport. Test files that import this must `jest.mock('jose', …)`: the
 * SDK requires it (ESM only) for AgentCard signatures, which these tests do not use.
 */
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';

export type SdkTransport = 'JSONRPC' | 'HTTP+JSON';

/** A client of the agent at `baseUrl` (its root AgentCard), over `fetchImpl`. */
export function sdkClient(baseUrl: string, fetchImpl: typeof fetch, preferred?: SdkTransport): Promise<Client> {
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
    ...(preferred ? { preferredTransports: [preferred] } : {}),
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  return factory.createFromUrl(baseUrl);
}
