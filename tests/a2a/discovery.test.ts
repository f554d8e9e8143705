/**
 * Agent discovery (issue 16): the AgentCard at the host root (RFC 8615; A2A v1.0
 * `/.well-known/agent-card.json`, older clients `/.well-known/agent.json`) is the edge's instance
 * card, and every name in it is spelled once, in A2A v1.0 ProtoJSON.
 */
import { protoRoot } from '@pty-ws/a2a-proto';
import { http } from '@pty-ws/testkit';
import { ptyWsParams, useServer } from './support';

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
    };
    const instance = ctx().server.instanceId;
    expect(ptyWsParams(card).instance_id).toBe(instance);
    const byBinding = new Map(card.supportedInterfaces.map((i) => [i.protocolBinding, i]));
    expect(byBinding.get('HTTP+JSON')?.url).toBe(`${ctx().server.httpUrl}/agents/${instance}/a2a/v1`);
    expect(byBinding.get('JSONRPC')?.url).toBe(`${ctx().server.httpUrl}/agents/${instance}/a2a/jsonrpc`);
    expect(card.supportedInterfaces.every((i) => i.protocolVersion === '1.0')).toBe(true);
    const rpc = await http(ctx().server, 'POST', new URL(byBinding.get('JSONRPC')!.url).pathname, {
      json: { jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} },
    });
    expect(rpc.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { nextPageToken: '' } });
  });

  it('no name is spelled twice: lowerCamelCase A2A names, pty-ws fields and extension params as their specs write them', async () => {
    const card = (await instanceCard()).body as Record<string, unknown>;
    // Free-form data: extension params (pty-extensions/v1 names, the pty-ws/v1 `bindings` of binding §10).
    const keys = keysOf(card, new Set(['params']));
    const twins = keys.filter((k) => k.key.includes('_') && k.siblings.includes(camel(k.key)));
    expect(twins.map((k) => k.path)).toEqual([]);
    const snake = keys.filter((k) => k.key.includes('_')).map((k) => k.path);
    expect(snake).toEqual([]);
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

  it('holds only fields of the A2A 1.0 AgentCard, at every level: a strict parser accepts it', async () => {
    const card = (await instanceCard()).body;
    expect(unknownFields(card, 'lf.a2a.v1.AgentCard')).toEqual([]);
    const params = ptyWsParams(card);
    expect(params.instance_id).toBe(ctx().server.instanceId);
    expect(params.bindings.map((b) => b.uri)).toEqual(expect.arrayContaining(['HTTP+JSON', 'JSONRPC']));
  });

  it('tells a client that names no session what it gets: a session per context, closed when idle', async () => {
    const params = ptyWsParams((await instanceCard()).body);
    expect(params['context_sessions']).toMatchObject({
      scope: 'pty:admin',
      task_executor: 'live_shell',
      idle_seconds: 900,
    });
  });
});

/**
 * Paths of `json` keys that message `typeName` (proto/lf/a2a/v1) does not define under their
 * ProtoJSON name, walking into message fields, repeated ones and maps; Struct data is free-form.
 */
function unknownFields(json: unknown, typeName: string, at = '$'): string[] {
  if (typeName.startsWith('google.protobuf.')) return [];
  const type = protoRoot().lookupType(typeName);
  return Object.entries(json as Record<string, unknown>).flatMap(([key, value]) => {
    const field = type.fieldsArray.find((f) => camel(f.name) === key);
    if (!field) return [`${at}.${key}`];
    const sub = field.resolvedType;
    if (!sub || !('fields' in sub)) return [];
    const nested = (v: unknown, p: string) => unknownFields(v, sub.fullName.replace(/^\./, ''), p);
    if (field.repeated) return (value as unknown[]).flatMap((v, i) => nested(v, `${at}.${key}[${i}]`));
    if (field.map) return Object.entries(value as object).flatMap(([k, v]) => nested(v, `${at}.${key}.${k}`));
    return nested(value, `${at}.${key}`);
  });
}
