import {
  BINDING_URI,
  CORE_OPERATIONS,
  EXTENSION_URI,
  EXTENSION_VERSION,
  SUBPROTOCOL_BINARY,
  SUBPROTOCOL_JSON,
} from '@pty-ws/protocol';
import type { Config } from '@pty-ws/config';
import { camelInterfaces, controlPlaneBindings } from './a2a/a2a-card';

/** The AgentCard of one instance (binding §10, extension params). */
export function agentCard(
  config: Config,
  instanceId: string,
  origin: { http: string; ws: string },
  /** Whether the A2A HTTP+JSON / JSON-RPC / gRPC bindings are served (EdgeDeps.a2a). */
  a2a = false,
): Record<string, unknown> {
  const mtls = config.tlsCa !== undefined;
  // The A2A control plane (HTTP+JSON primary, JSON-RPC, gRPC): only when the edge serves it.
  const control = a2a
    ? controlPlaneBindings(config, instanceId, { http: origin.http, host: hostOf(origin.http) })
    : undefined;
  return {
    protocol_version: '1.0',
    name: `pty-ws ${instanceId}`,
    description: 'Live terminals over WebSocket: attach, observe and drive PTY sessions; run shell tasks.',
    version: '0.1.0',
    instance_id: instanceId,
    url: `${origin.http}/agents/${instanceId}`,
    preferred_transport: BINDING_URI,
    capabilities: {
      streaming: true,
      push_notifications: control !== undefined,
      // The JS SDK reads the card without a ProtoJSON parser: the camelCase name too.
      pushNotifications: control !== undefined,
      extensions: [
        {
          uri: EXTENSION_URI,
          version: EXTENSION_VERSION,
          required: false,
          description: 'PTY verbs: roles, membership, replay, keyframes, closed lifecycle',
          params: {
            max_controllers: config.maxControllers,
            max_observers: config.maxObservers,
            keyframe_interval_seconds: config.keyframeIntervalS,
            keyframe_interval_frames: config.keyframeIntervalFrames,
            replay_buffer_frames: config.replayFrames,
            replay_buffer_retention_seconds: config.replayRetentionS,
            default_cols: config.defaultCols,
            default_rows: config.defaultRows,
          },
        },
      ],
    },
    bindings: [
      {
        uri: BINDING_URI,
        endpoint: `${origin.ws}/agents/${instanceId}/sessions/{session_id}/attach`,
        preference: 'secondary',
        operations: [...CORE_OPERATIONS],
        subprotocols: [SUBPROTOCOL_JSON, SUBPROTOCOL_BINARY],
        notes:
          'Optimal for interactive PTY attach; control-plane operations preferred via REST. ListTasks is scoped to the ' +
          "connection's session (binding §4.4 deviation); PushNotificationConfig operations answer UNSUPPORTED_OPERATION.",
      },
      ...(control?.bindings ?? []),
    ],
    ...(control
      ? { supported_interfaces: control.interfaces, supportedInterfaces: camelInterfaces(control.interfaces) }
      : {}),
    security_schemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: 'pty-ws token with pty:observe, pty:control or pty:admin scope',
      },
      // Binding §7.1.2: published only when enforced (PTYWS_TLS_CA); the certificate's CN is the principal.
      ...(mtls
        ? { mtls: { type: 'mutualTLS', description: `client certificate; scopes ${config.mtlsScopes.join(', ')}` } }
        : {}),
    },
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, ...(mtls ? { mtls: { type: 'mutualTLS' } } : {}) },
    security: config.authEnabled ? [{ bearer: [] }, ...(mtls ? [{ mtls: [] }] : [])] : [],
    default_input_modes: ['text/plain'],
    default_output_modes: ['text/plain'],
    skills: [
      {
        id: 'shell-task',
        name: 'Run a shell command',
        description: "The message text runs as /bin/sh -c in the session's working directory; output is the artifact.",
        tags: ['shell', 'terminal'],
      },
    ],
  };
}

function hostOf(url: string): string {
  return url.replace(/^[a-z]+:\/\//, '');
}
