import { BindingError } from './errors';
import type { SessionBackend, SessionClass, SessionHostCapabilities } from './envelope';

/** Multiplexer backends: the program lives in a named multiplexer session (class `managed`). */
export const MULTIPLEXER_BACKENDS: readonly SessionBackend[] = ['tmux', 'screen', 'zellij'];

/** The only class each backend runs as (binding §5.1.1: native is direct, multiplexers managed). */
export function classOfBackend(backend: SessionBackend): SessionClass {
  return MULTIPLEXER_BACKENDS.includes(backend) ? 'managed' : 'direct';
}

export interface HostSelection {
  backend: SessionBackend;
  sessionClass: SessionClass;
}

function notImplemented(kind: 'session_backend' | 'session_class', value: string, why: string): BindingError {
  return new BindingError('INVALID_REQUEST', `${kind}.not_implemented: ${why}`, {
    reason: `${kind}.not_implemented`,
    [kind]: value,
  });
}

/**
 * Resolves a requested backend/class against what a host advertises, failing closed. An omitted
 * backend is the host's default; an omitted class is the one the backend runs as, so naming only
 * `session_backend: "tmux"` selects tmux/managed. Shared by session creation and joins.
 */
export function resolveHostSelection(
  host: SessionHostCapabilities,
  backend: SessionBackend | undefined,
  sessionClass: SessionClass | undefined,
): HostSelection {
  const b = backend ?? host.default_backend;
  if (!host.supported_backends.includes(b)) {
    throw notImplemented(
      'session_backend',
      b,
      `backend '${b}' is not available on this agent (supported: ${host.supported_backends.join(', ')})`,
    );
  }
  const paired = classOfBackend(b);
  const c = sessionClass ?? paired;
  if (!host.supported_classes.includes(c) || c !== paired) {
    throw notImplemented('session_class', c, `backend '${b}' supports class '${paired}' only`);
  }
  return { backend: b, sessionClass: c };
}
