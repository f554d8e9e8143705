import { TERMINAL_TASK_STATES, type Message, type Task } from '@pty-ws/protocol';
import { A2aError } from './a2a-error';

/**
 * The media types a message's parts may declare: the command runs as text, so plain text only
 * (the AgentCard's `defaultInputModes`). A part without a media type is taken as what it is.
 */
export const INPUT_MEDIA_TYPES: readonly string[] = ['text/plain'];

/** `text/plain; charset=utf-8` → `text/plain`. */
function essence(mediaType: string): string {
  return mediaType.split(';', 1)[0]!.trim().toLowerCase();
}

/** A2A §3.1.1: a part whose media type the agent does not take is ContentTypeNotSupported. */
export function checkMediaTypes(message: Message): void {
  message.parts.forEach((part, i) => {
    if (part.media_type === undefined || INPUT_MEDIA_TYPES.includes(essence(part.media_type))) return;
    throw new A2aError(
      'ContentTypeNotSupported',
      `'message.parts[${i}]' has media type '${part.media_type}'; this agent takes ${INPUT_MEDIA_TYPES.join(', ')}`,
      { supported_media_types: [...INPUT_MEDIA_TYPES] },
    );
  });
}

/**
 * A2A §3.1.1 / §3.1.6: a task in a terminal state takes no further messages and cannot be
 * subscribed to (UnsupportedOperation).
 */
export function refuseTerminal(task: Task, what: string): void {
  if (!TERMINAL_TASK_STATES.has(task.status.state)) return;
  throw new A2aError('UnsupportedOperation', `task ${task.id} is ${task.status.state}: it ${what}`, {
    task_id: task.id,
    state: task.status.state,
  });
}

/** A2A versions the bindings speak: 1.x. Absent or empty: the caller takes what it gets. */
const SUPPORTED_VERSION = /^\s*1(\.\d+)?\s*$/;

/**
 * A2A §3.2.6: a request naming a version the agent does not support (the `A2A-Version` header,
 * gRPC `a2a-version` metadata) is VersionNotSupported, on every binding alike.
 */
export function checkA2aVersion(version: string | undefined): void {
  if (version === undefined || version.trim() === '' || SUPPORTED_VERSION.test(version)) return;
  throw new A2aError('VersionNotSupported', `A2A version '${version}' is not supported`, {
    supported_versions: ['1.0'],
  });
}
