import { INPUT_MEDIA_TYPES } from '@pty-ws/a2a';
import { A2A_TYPES, toA2aV1 } from '@pty-ws/a2a-proto';
import {
  BINDING_URI,
  CORE_OPERATIONS,
  EXTENSION_URI,
  EXTENSION_VERSION,
  SUBPROTOCOL_BINARY,
  SUBPROTOCOL_JSON,
} from '@pty-ws/protocol';
import type { Config } from '@pty-ws/config';
import { controlPlaneBindings } from './a2a/a2a-card';

/**
 * The AgentCard of one instance: an A2A v1.0 `AgentCard` in its ProtoJSON form (lowerCamelCase,
 * rendered by `toA2aV1`, so no name is spelled twice) and nothing else, so strict parsers accept
 * it. What the pty-ws/v1 binding text adds — `instance_id` (§2) and `bindings` (§10: preference,
 * operations, subprotocols, notes per endpoint) — lives in the pty-extensions `params`; the
 * endpoints themselves are the `supportedInterfaces`.
 */
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
  const attach = `${origin.ws}/agents/${instanceId}/sessions/{session_id}/attach`;
  const bindings = [
    {
      uri: BINDING_URI,
      endpoint: attach,
      preference: 'secondary',
      operations: [...CORE_OPERATIONS],
      subprotocols: [SUBPROTOCOL_JSON, SUBPROTOCOL_BINARY],
      notes:
        'Optimal for interactive PTY attach; control-plane operations preferred via REST. ListTasks is scoped to the ' +
        "connection's session (binding §4.4 deviation); PushNotificationConfig operations answer UNSUPPORTED_OPERATION.",
    },
    ...(control?.bindings ?? []),
  ];
  const card = toA2aV1(A2A_TYPES.AgentCard, {
    name: `pty-ws ${instanceId}`,
    description: 'Live terminals over WebSocket: attach, observe and drive PTY sessions; run shell tasks.',
    version: '0.1.0',
    // A custom binding is declared among the interfaces too (A2A §12.7), after the standard ones.
    supported_interfaces: [
      ...(control?.interfaces ?? []),
      { url: attach, protocol_binding: BINDING_URI, protocol_version: '1.0' },
    ],
    capabilities: {
      streaming: true,
      push_notifications: control !== undefined,
      extended_agent_card: false,
      extensions: [
        {
          uri: EXTENSION_URI,
          description: `PTY verbs (v${EXTENSION_VERSION}): roles, membership, replay, keyframes, closed lifecycle`,
          required: false,
          // Struct data: the names pty-extensions/v1 gives its params, not field names.
          params: {
            max_controllers: config.maxControllers,
            max_observers: config.maxObservers,
            keyframe_interval_seconds: config.keyframeIntervalS,
            keyframe_interval_frames: config.keyframeIntervalFrames,
            replay_buffer_frames: config.replayFrames,
            replay_buffer_retention_seconds: config.replayRetentionS,
            default_cols: config.defaultCols,
            default_rows: config.defaultRows,
            instance_id: instanceId,
            bindings,
            // A2A clients that name no session (control plane only): what they get instead.
            ...(control
              ? {
                  context_sessions: {
                    description:
                      'A SendMessage without metadata.session_id from a pty:admin token runs in a live-shell session ' +
                      "created for the message's contextId (a new context when it has none); the context's later " +
                      'messages run there; the session closes once the context has been idle for idle_seconds and ' +
                      'runs no task.',
                    scope: 'pty:admin',
                    task_executor: 'live_shell',
                    idle_seconds: config.contextSessionIdleS,
                  },
                }
              : {}),
          },
        },
      ],
    },
    security_schemes: {
      bearer: {
        http_auth_security_scheme: {
          scheme: 'Bearer',
          description: 'pty-ws token with pty:observe, pty:control or pty:admin scope',
        },
      },
      // Binding §7.1.2: published only when enforced (PTYWS_TLS_CA); the certificate's CN is the principal.
      ...(mtls
        ? {
            mtls: {
              mtls_security_scheme: { description: `client certificate; scopes ${config.mtlsScopes.join(', ')}` },
            },
          }
        : {}),
    },
    security_requirements: config.authEnabled
      ? [{ schemes: { bearer: { list: [] } } }, ...(mtls ? [{ schemes: { mtls: { list: [] } } }] : [])]
      : [],
    default_input_modes: [...INPUT_MEDIA_TYPES],
    default_output_modes: ['text/plain'],
    skills: [
      {
        id: 'shell-task',
        name: 'Run a shell command',
        description:
          'The message text runs as a shell command in the session that metadata.session_id names (or, for a ' +
          "pty:admin token that names none, in a session created for the message's contextId); output is the " +
          'artifact, streamed while it runs; a command that waits for terminal input asks for it (INPUT_REQUIRED).',
        tags: ['shell', 'terminal'],
      },
    ],
  });
  return card;
}

function hostOf(url: string): string {
  return url.replace(/^[a-z]+:\/\//, '');
}
