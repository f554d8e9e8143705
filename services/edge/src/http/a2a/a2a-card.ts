import type { Config } from '@pty-ws/config';
import { CORE_OPERATIONS } from '@pty-ws/protocol';
import { a2aJsonRpcPath, a2aRestBase } from './a2a-http';

/** The A2A operations the control-plane bindings carry (A2A v1.0 method names). */
export const CONTROL_PLANE_OPERATIONS = [
  ...CORE_OPERATIONS,
  'SetTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
] as const;

const SESSION_NOTE =
  'Agent-scoped (ListTasks lists every session of the instance; filter with session_id). SendMessage runs ' +
  'in the session named by message.metadata.session_id (or the session of a session-bound token). Activating pty-extensions/v1 here is UnsupportedExtension.';

/** Where a gRPC client reaches this edge: the HTTP host's name on PTYWS_GRPC_PORT. */
function grpcEndpoint(config: Config, httpHost: string): string | undefined {
  if (config.grpcPort === 0) return undefined;
  const name = /^(\[[^\]]+\]|[^:]+)/.exec(httpHost)?.[1] ?? config.host;
  return `${name}:${config.grpcPort}`;
}

/**
 * The AgentCard entries of the standard bindings: `bindings[]` in the pty-ws card style
 * (uri, endpoint, preference, operations, notes; in the pty-extensions params) and A2A v1.0 `supported_interfaces` (wire
 * JSON; the card renders them as `supportedInterfaces`), which the official clients select a
 * transport from. REST is the primary control plane (binding §10: pty-ws/v1 is secondary).
 */
export function controlPlaneBindings(
  config: Config,
  instanceId: string,
  origin: { http: string; host: string },
): { bindings: Record<string, unknown>[]; interfaces: Record<string, string>[] } {
  const rest = `${origin.http}${a2aRestBase(instanceId)}`;
  const jsonrpc = `${origin.http}${a2aJsonRpcPath(instanceId)}`;
  const grpc = grpcEndpoint(config, origin.host);
  const bindings: Record<string, unknown>[] = [
    {
      uri: 'HTTP+JSON',
      endpoint: rest,
      preference: 'primary',
      operations: [...CONTROL_PLANE_OPERATIONS],
      notes: SESSION_NOTE,
    },
    {
      uri: 'JSONRPC',
      endpoint: jsonrpc,
      preference: 'alternate',
      operations: [...CONTROL_PLANE_OPERATIONS],
      notes: `${SESSION_NOTE} Streaming methods answer with Server-Sent Events.`,
    },
  ];
  const interfaces = [
    { url: rest, protocol_binding: 'HTTP+JSON', protocol_version: '1.0' },
    { url: jsonrpc, protocol_binding: 'JSONRPC', protocol_version: '1.0' },
  ];
  if (grpc) {
    bindings.push({
      uri: 'GRPC',
      endpoint: grpc,
      preference: 'alternate',
      operations: [...CONTROL_PLANE_OPERATIONS],
      notes: `${SESSION_NOTE} Service lf.a2a.v1.A2AService (plus ptyws.admin.v1.AdminService); bearer token in the authorization metadata.`,
    });
    interfaces.push({ url: grpc, protocol_binding: 'GRPC', protocol_version: '1.0' });
  }
  return { bindings, interfaces };
}
