import { classOfBackend, type SessionBackend, type SessionClass, type SessionHostCapabilities } from '@pty-ws/protocol';

/**
 * What an agent announces on `<prefix>.agents.presence`: which instance it serves and what its
 * PTY bridge can host. Edges build `binding_hello.session_host` from the live announcements.
 */
export interface AgentPresence {
  agentId: string;
  instanceId: string;
  sessionHost: SessionHostCapabilities;
  /** Sent once by an agent stopping in order, so edges drop it at once instead of at expiry. */
  leaving?: boolean;
}

const BACKENDS: readonly SessionBackend[] = ['native', 'tmux', 'screen', 'zellij'];
const CLASSES: readonly SessionClass[] = ['direct', 'managed'];

function listOf<T extends string>(value: unknown, allowed: readonly T[]): T[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every((v) => allowed.includes(v as T)) ? (value as T[]) : undefined;
}

/** Checks an announcement read off the wire; anything malformed is ignored, never advertised. */
export function parsePresence(value: unknown): AgentPresence | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const h = v['sessionHost'] as Record<string, unknown> | undefined;
  if (typeof v['agentId'] !== 'string' || typeof v['instanceId'] !== 'string' || typeof h !== 'object' || !h)
    return undefined;
  const backends = listOf(h['supported_backends'], BACKENDS);
  const classes = listOf(h['supported_classes'], CLASSES);
  const defaultBackend = h['default_backend'] as SessionBackend;
  const defaultClass = h['default_class'] as SessionClass;
  if (!backends || !classes || !backends.includes(defaultBackend) || !classes.includes(defaultClass)) return undefined;
  const flags = ['observe_supported', 'drive_supported', 'reattach_supported'] as const;
  if (flags.some((f) => typeof h[f] !== 'boolean')) return undefined;
  return {
    agentId: v['agentId'],
    instanceId: v['instanceId'],
    sessionHost: {
      supported_backends: [...backends],
      default_backend: defaultBackend,
      supported_classes: [...classes],
      default_class: defaultClass,
      observe_supported: h['observe_supported'] as boolean,
      drive_supported: h['drive_supported'] as boolean,
      reattach_supported: h['reattach_supported'] as boolean,
    },
    ...(v['leaving'] === true ? { leaving: true } : {}),
  };
}

/**
 * The capabilities of an instance served by several agents: every backend some agent hosts
 * (creation is routed to an agent that has it, see AgentDirectory.agentFor), the default the
 * agents agree on (else native, which every agent hosts), and a flag only when all agents have it.
 */
export function mergeSessionHosts(hosts: readonly SessionHostCapabilities[]): SessionHostCapabilities | undefined {
  if (hosts.length === 0) return undefined;
  const backends = BACKENDS.filter((b) => hosts.some((h) => h.supported_backends.includes(b)));
  const classes = CLASSES.filter((c) => hosts.some((h) => h.supported_classes.includes(c)));
  const first = hosts[0]!.default_backend;
  const defaultBackend: SessionBackend = hosts.every((h) => h.default_backend === first) ? first : 'native';
  return {
    supported_backends: backends,
    default_backend: defaultBackend,
    supported_classes: classes,
    default_class: classOfBackend(defaultBackend),
    observe_supported: hosts.every((h) => h.observe_supported),
    drive_supported: hosts.every((h) => h.drive_supported),
    reattach_supported: hosts.every((h) => h.reattach_supported),
  };
}
