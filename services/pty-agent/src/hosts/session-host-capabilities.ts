import type { SessionBackend, SessionHostCapabilities } from '@pty-ws/protocol';
import { findExecutable } from './executables';

/** Multiplexer backends this agent can run, and the program each needs. zellij is not built here. */
export const MULTIPLEXER_PROGRAMS = { tmux: 'tmux', screen: 'screen' } as const;
export type ManagedBackend = keyof typeof MULTIPLEXER_PROGRAMS;

/** The multiplexers whose program is installed, with its absolute path. */
export function detectMultiplexers(searchPath?: string): Partial<Record<ManagedBackend, string>> {
  const found: Partial<Record<ManagedBackend, string>> = {};
  for (const backend of Object.keys(MULTIPLEXER_PROGRAMS) as ManagedBackend[]) {
    const file = findExecutable(MULTIPLEXER_PROGRAMS[backend], searchPath);
    if (file) found[backend] = file;
  }
  return found;
}

/** What a host with these multiplexers advertises in `binding_hello.session_host` (binding §5.1). */
export function sessionHostCapabilities(multiplexers: readonly ManagedBackend[]): SessionHostCapabilities {
  const backends: SessionBackend[] = ['native', ...multiplexers];
  return {
    supported_backends: backends,
    default_backend: 'native',
    supported_classes: multiplexers.length > 0 ? ['direct', 'managed'] : ['direct'],
    default_class: 'direct',
    observe_supported: true,
    drive_supported: true,
    reattach_supported: true,
  };
}

/** Programs found when the agent starts (binding §5.1: advertise only what can actually run). */
export const MULTIPLEXERS = detectMultiplexers();

/** This agent's PTY bridge capabilities: native/direct plus each installed multiplexer as managed. */
export const SESSION_HOST: SessionHostCapabilities = sessionHostCapabilities(
  Object.keys(MULTIPLEXERS) as ManagedBackend[],
);
