import { connect, type NatsConnection } from '@nats-io/transport-node';
import { NATS_URL, connectForTest, runNames } from './nats-fixture';

async function noResponders(nc: NatsConnection, subject: string): Promise<Error> {
  try {
    await nc.request(subject, 'x', { timeout: 2000 });
  } catch (err) {
    return err as Error;
  }
  throw new Error('the request was answered');
}

const frames = (err: Error): number => (err.stack ?? '').split('\n').filter((l) => l.trim().startsWith('at ')).length;

describe('stacklessReplyDispatch (every connectNats connection)', () => {
  let services: NatsConnection;
  let plain: NatsConnection;
  beforeAll(async () => {
    services = await connectForTest();
    plain = await connect({ servers: NATS_URL, noAsyncTraces: true });
  });
  afterAll(async () => {
    await services.close();
    await plain.close();
  });

  it('still delivers replies, and leaves the stack trace limit as it was', async () => {
    const subject = `${runNames().prefix}.echo`;
    const sub = services.subscribe(subject, { callback: (_e, m) => m.respond(m.data) });
    await services.flush();
    const limit = Error.stackTraceLimit;
    for (let i = 0; i < 5; i++) expect((await services.request(subject, `r${i}`)).string()).toBe(`r${i}`);
    expect(Error.stackTraceLimit).toBe(limit);
    sub.unsubscribe();
  });

  it('routes replies without capturing stacks: a no-responders error keeps its kind and message only', async () => {
    const subject = `${runNames().prefix}.nobody`;
    const ours = await noResponders(services, subject);
    const theirs = await noResponders(plain, subject);
    expect(ours.constructor).toBe(theirs.constructor);
    expect(ours.message).toBe(theirs.message);
    expect(ours.message).toMatch(/no responders/i);
    // The library's own dispatch captures where the reply was routed; ours does not.
    expect(frames(theirs)).toBeGreaterThan(0);
    expect(frames(ours)).toBe(0);
  });
});
