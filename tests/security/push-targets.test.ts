/**
 * Push-notification webhooks are caller-chosen URLs (issue 13): by default they may not reach
 * loopback, link-local, private or unspecified addresses — after DNS resolution, on every
 * attempt — so a pty:control token cannot make the agent POST command output to services on
 * its own network; PTYWS_PUSH_ALLOWED_HOSTS opts a host or range in. The configs' credentials
 * are write-only: the token never comes back, secrets in the URL are redacted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookAddressPolicy, redactUrl, type TaskPushNotificationConfig } from '@pty-ws/a2a';
import { TestContext } from '@pty-ws/testkit';
import { awaitState, newSession, restOk, rest, textMessage } from '../a2a/support';

jest.setTimeout(60_000);

describe('WebhookAddressPolicy', () => {
  const policy = new WebhookAddressPolicy();
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::7f00:1',
  ])('refuses %s', (address) => {
    expect(policy.addressAllowed(address)).toBe(false);
  });
  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111'])('allows %s', (address) => {
    expect(policy.addressAllowed(address)).toBe(true);
  });
  it('odd IPv4 spellings are canonicalized by the URL parser before the check', () => {
    for (const url of ['http://0x7f000001/', 'http://2130706433/', 'http://0177.0.0.1/', 'http://127.1/'])
      expect(policy.addressAllowed(new URL(url).hostname)).toBe(false);
  });
  it('PTYWS_PUSH_ALLOWED_HOSTS opts names and ranges in', () => {
    const opted = new WebhookAddressPolicy(['hooks.internal', '10.1.0.0/16', '127.0.0.1']);
    expect(opted.nameAllowed('HOOKS.internal')).toBe(true);
    expect(opted.addressAllowed('10.1.2.3')).toBe(true);
    expect(opted.addressAllowed('10.2.0.1')).toBe(false);
    expect(opted.addressAllowed('::ffff:127.0.0.1')).toBe(true);
  });
  it('redactUrl keeps where, hides secrets', () => {
    expect(redactUrl('https://u:pw@h.example:8443/p/q?key=s3cret&x=1#frag')).toBe(
      'https://redacted@h.example:8443/p/q?key=redacted&x=redacted',
    );
  });
});

describe('push delivery to a loopback listener', () => {
  let ctx: TestContext;
  /** Denied: 127.0.0.1 is loopback. Canary: 127.0.0.2, opted in, gets the same task's updates. */
  const denied = { received: [] as string[], server: undefined as Server | undefined, base: '' };
  const canary = { received: [] as string[], server: undefined as Server | undefined, base: '' };
  const listen = async (hook: typeof denied, address: string) => {
    hook.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        hook.received.push(body);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.server!.listen(0, address, r));
    hook.base = `http://${address}:${(hook.server.address() as AddressInfo).port}`;
  };
  beforeAll(async () => {
    await listen(denied, '127.0.0.1');
    await listen(canary, '127.0.0.2');
    ctx = await TestContext.start({ pushBackoffMs: 20, pushAttempts: 2, pushAllowedHosts: ['127.0.0.2'] });
  });
  afterAll(async () => {
    await ctx?.dispose();
    for (const h of [denied, canary]) await new Promise((r) => h.server?.close(r));
  });

  it('is refused by default; the config shows neither its token nor its URL secrets', async () => {
    const session = await newSession(ctx);
    const { task } = await restOk<{ task: { id: string } }>(ctx, 'POST', '/message:send', {
      message: textMessage('sleep 1; echo done', session),
      configuration: { returnImmediately: true },
    });
    const created = await restOk<TaskPushNotificationConfig>(ctx, 'POST', `/tasks/${task.id}/pushNotificationConfigs`, {
      id: 'loop',
      url: `${denied.base}/steal?key=s3cret`,
      token: 'tok123',
    });
    expect(created).not.toHaveProperty('token');
    expect(created.url).toBe(`${denied.base}/steal?key=redacted`);
    await restOk(ctx, 'POST', `/tasks/${task.id}/pushNotificationConfigs`, { id: 'canary', url: `${canary.base}/ok` });
    const listed = await rest(ctx, 'GET', `/tasks/${task.id}/pushNotificationConfigs`);
    expect(listed.text).not.toMatch(/tok123|s3cret/);
    await awaitState(ctx, task.id, ['COMPLETED']);
    // The opted-in canary hears the task complete; the loopback target heard nothing meanwhile.
    while (!canary.received.some((b) => b.includes('COMPLETED'))) await new Promise((r) => setTimeout(r, 50));
    expect(denied.received).toEqual([]);
  });
});
