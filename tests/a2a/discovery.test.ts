/**
 * Agent discovery (issue 16): the AgentCard at the host root (RFC 8615; A2A v1.0
 * `/.well-known/agent-card.json`, older clients `/.well-known/agent.json`) is the edge's instance
 * card, and every name in it is spelled once, in A2A v1.0 ProtoJSON.
 */
import { http } from '@pty-ws/testkit';
import { useServer } from './support';

/** Every object key of `value` with its path, not descending into `skip`ped keys (free-form data). */
function keysOf(
  value: unknown,
  skip: ReadonlySet<string>,
  at = '$',
): { path: string; key: string; siblings: string[] }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keysOf(v, skip, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const keys = Object.keys(value);
  return keys.flatMap((key) => [
    { path: `${at}.${key}`, key, siblings: keys },
    ...(skip.has(key) ? [] : keysOf((value as Record<string, unknown>)[key], skip, `${at}.${key}`)),
  ]);
}

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

describe('AgentCard discovery from the host root', () => {
  const ctx = useServer({ authEnabled: true });
  const instanceCard = () =>
    http(ctx().server, 'GET', `/agents/${ctx().server.instanceId}/.well-known/agent-card.json`);

  it('GET /.well-known/agent-card.json and /.well-known/agent.json serve the instance card, without credentials', async () => {
    const perInstance = await instanceCard();
    expect(perInstance.status).toBe(200);
    for (const path of ['/.well-known/agent-card.json', '/.well-known/agent.json']) {
      const root = await http(ctx().server, 'GET', path, { token: null });
      expect(root.status).toBe(200);
      expect(root.headers.get('content-type')).toMatch(/^application\/json/);
      expect(root.body).toEqual(perInstance.body);
    }
  });

  it('its interfaces point at the per-instance endpoints, which answer', async () => {
    const card = (await http(ctx().server, 'GET', '/.well-known/agent-card.json', { token: null })).body as {
      supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
      instance_id: string;
      url: string;
    };
    const instance = ctx().server.instanceId;
    expect(card.instance_id).toBe(instance);
    const byBinding = new Map(card.supportedInterfaces.map((i) => [i.protocolBinding, i]));
    expect(byBinding.get('HTTP+JSON')?.url).toBe(`${ctx().server.httpUrl}/agents/${instance}/a2a/v1`);
    expect(byBinding.get('JSONRPC')?.url).toBe(`${ctx().server.httpUrl}/agents/${instance}/a2a/jsonrpc`);
    expect(card.supportedInterfaces.every((i) => i.protocolVersion === '1.0')).toBe(true);
    // The v0.3 `url` is the JSON-RPC endpoint: a v0.3 client POSTs there.
    expect(card.url).toBe(byBinding.get('JSONRPC')?.url);
    const rpc = await http(ctx().server, 'POST', new URL(card.url).pathname, {
      json: { jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} },
    });
    expect(rpc.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { nextPageToken: '' } });
  });

  it('no name is spelled twice: lowerCamelCase A2A names, pty-ws fields and extension params as their specs write them', async () => {
    const card = (await instanceCard()).body as Record<string, unknown>;
    // Free-form data: extension params (pty-extensions/v1 names) and the pty-ws/v1 `bindings` (binding §10).
    const keys = keysOf(card, new Set(['params', 'bindings']));
    const twins = keys.filter((k) => k.key.includes('_') && k.siblings.includes(camel(k.key)));
    expect(twins.map((k) => k.path)).toEqual([]);
    const snake = keys.filter((k) => k.key.includes('_')).map((k) => k.path);
    expect(snake).toEqual(['$.instance_id']);
    for (const removed of [
      'supported_interfaces',
      'security_schemes',
      'preferred_transport',
      'protocol_version',
      'security',
    ])
      expect(card).not.toHaveProperty(removed);
    expect(card).toMatchObject({
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { bearer: {} } }],
      defaultInputModes: ['text/plain'],
      capabilities: { streaming: true, pushNotifications: true },
    });
  });
});
