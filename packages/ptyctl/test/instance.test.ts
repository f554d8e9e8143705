/** Instance discovery: the root AgentCard names the instance a server serves, for any token. */
import { startTestServer, type TestServer } from '@pty-ws/testkit';
import { resolveInstance } from '../src/instance';

let server: TestServer;

beforeAll(async () => {
  // Not the default `local`: a discovery that fell through would answer that.
  server = await startTestServer({ instanceId: 'discovered-instance' });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

it('reads the instance from the AgentCard, without credentials', async () => {
  const settings = { baseUrl: server.httpUrl, token: undefined, instance: undefined };
  expect(await resolveInstance(settings, 'any-session')).toBe('discovered-instance');
});
