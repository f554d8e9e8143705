/**
 * Which instance a session lives in. The attach URL names it, but users rarely know it, and an
 * observe/control token cannot read the admin REST API, so several sources are tried in order.
 */
import { EXTENSION_URI } from '@pty-ws/protocol';
import { send } from './rest';
import type { Settings } from './settings';

export const DEFAULT_INSTANCE = 'local';
const DISCOVERY_TIMEOUT_MS = 2_000;

function stringField(body: unknown, key: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const v = (body as Record<string, unknown>)[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The instance an AgentCard names: the `instance_id` param of its pty-extensions entry (`capabilities.extensions[]`). */
export function cardInstance(card: unknown): string | undefined {
  const extensions = (card as { capabilities?: { extensions?: unknown } } | null)?.capabilities?.extensions;
  const ours = Array.isArray(extensions)
    ? (extensions as { uri?: unknown; params?: unknown }[]).find((e) => e?.uri === EXTENSION_URI)
    : undefined;
  return stringField(ours?.params, 'instance_id');
}

/** The A2A well-known AgentCard at the server root, which names the instance it serves. */
async function fromAgentCard(settings: Settings): Promise<string | undefined> {
  try {
    const res = await send(settings, 'GET', '/.well-known/agent-card.json', {
      anonymous: true,
      timeoutMs: DISCOVERY_TIMEOUT_MS,
    });
    return res.status === 200 ? cardInstance(res.body) : undefined;
  } catch {
    return undefined;
  }
}

/** The session record names its instance; readable with an admin token only. */
async function fromSession(settings: Settings, sessionId: string): Promise<string | undefined> {
  if (settings.token === undefined) return undefined;
  try {
    const res = await send(settings, 'GET', `/api/v1/sessions/${encodeURIComponent(sessionId)}`, {
      timeoutMs: DISCOVERY_TIMEOUT_MS,
    });
    return res.status === 200 ? stringField(res.body, 'instance_id') : undefined;
  } catch {
    return undefined;
  }
}

/** `--instance`/PTYWS_INSTANCE, else the root AgentCard, else the session record, else `local`. */
export async function resolveInstance(settings: Settings, sessionId: string): Promise<string> {
  if (settings.instance !== undefined) return settings.instance;
  return (await fromAgentCard(settings)) ?? (await fromSession(settings, sessionId)) ?? DEFAULT_INSTANCE;
}
