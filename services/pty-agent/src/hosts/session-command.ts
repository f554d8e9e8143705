import { builtScript } from '../built-script';
import { asSessionUser, type SessionIdentity } from './session-identity';

/** The compiled close-fds program (native/close-fds.c), or undefined without a C compiler. */
export function closeFdsBinary(): string | undefined {
  return builtScript('native/close-fds');
}

/**
 * How a session's program or a task's command is started: through close-fds, so it holds none of
 * the agent's descriptors (other sessions' ptys among them), then as the session user when there
 * is one. Without the close-fds binary only the second.
 */
export function sessionCommand(
  identity: SessionIdentity | undefined,
  file: string,
  args: readonly string[],
  closeFds: string | undefined = closeFdsBinary(),
): { file: string; args: string[] } {
  const command = asSessionUser(identity, file, args);
  return closeFds ? { file: closeFds, args: [command.file, ...command.args] } : command;
}
