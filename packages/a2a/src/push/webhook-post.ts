import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { WebhookAddressRefused, type WebhookAddressPolicy } from './ssrf-guard';

/**
 * One POST of a notification; resolves with the HTTP status (redirects are not followed).
 * With a policy every address the connection would use is checked first: an IP-literal host
 * here, a name inside the connection's own DNS lookup, so the address checked is the address
 * connected to. Rejects with WebhookAddressRefused when refused, with the socket error otherwise.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  policy?: WebhookAddressPolicy,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return reject(new WebhookAddressRefused(`not a URL: ${url}`));
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      return reject(new WebhookAddressRefused(`webhooks are http(s), not ${u.protocol}`));
    const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    if (policy && isIP(host) !== 0 && !policy.nameAllowed(host) && !policy.addressAllowed(host))
      return reject(
        new WebhookAddressRefused(
          `webhook address ${host} is loopback/private/link-local (PTYWS_PUSH_ALLOWED_HOSTS opts in)`,
        ),
      );
    const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      u,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
        timeout: timeoutMs,
        ...(policy ? { lookup: policy.lookup as never } : {}),
      },
      (res) => {
        res.resume(); // drain and release the connection
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    const deadline = setTimeout(() => req.destroy(new Error('webhook timed out')), timeoutMs);
    deadline.unref();
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy(new Error('webhook timed out')));
    req.on('error', reject);
    req.end(body);
  });
}
