import { BindingError, tryDecodePathSegment } from '@pty-ws/protocol';
import type { Config } from '@pty-ws/config';
import type { HttpRequest, TemplatedApp } from '../uws';
import { agentCard } from './agent-card';
import { sendCard } from './card-response';
import { responder, sendError, sendJson } from './respond';

/**
 * Where A2A clients discover agents (RFC 8615 well-known URIs): `/.well-known/agent-card.json` at
 * the host root (A2A v1.0; `/.well-known/agent.json` for older clients) and per instance under
 * `/agents/{instance}/.well-known/agent-card.json`. An edge serves one instance, so the root card
 * is that instance's card, whose interfaces point at the per-instance endpoints: a client given
 * only the host finds everything from there. Cards are public (no credentials: they say how to
 * authenticate).
 */
export function mountAgentCards(app: TemplatedApp, config: Config, a2a: boolean): void {
  // Behind TLS the URLs handed out must be the secure ones clients can use.
  const tls = config.tlsCert !== undefined && config.tlsKey !== undefined;
  const origin = (host: string) =>
    tls ? { http: `https://${host}`, ws: `wss://${host}` } : { http: `http://${host}`, ws: `ws://${host}` };
  // The card is built from the configuration, fixed for the life of the process.
  const lastModified = new Date();
  const conditions = (req: HttpRequest) => ({
    ifNoneMatch: req.getHeader('if-none-match'),
    ifModifiedSince: req.getHeader('if-modified-since'),
  });

  for (const path of ['/.well-known/agent-card.json', '/.well-known/agent.json']) {
    app.get(path, (res, req) => {
      const card = agentCard(config, config.instanceId, origin(req.getHeader('host')), a2a);
      sendCard(responder(res), card, conditions(req), lastModified);
    });
  }

  app.get('/agents/:instance/.well-known/agent-card.json', (res, req) => {
    const r = responder(res);
    const instance = tryDecodePathSegment(req.getParameter(0) ?? '');
    const host = req.getHeader('host');
    const asked = conditions(req);
    if (instance === undefined) return sendError(r, 'INVALID_REQUEST', 'malformed percent-escape in the URL path', 400);
    if (instance !== config.instanceId) {
      return sendJson(r, 404, {
        error: new BindingError('INVALID_REQUEST', `instance '${instance}' not found`).toPayload(),
      });
    }
    sendCard(r, agentCard(config, instance, origin(host), a2a), asked, lastModified);
  });
}
