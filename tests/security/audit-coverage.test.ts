/**
 * The audit trail covers every binding (issue 13): tasks sent and canceled over pty-ws/v1 are
 * recorded like those of HTTP and gRPC; an inline push config of a SendMessage is a
 * `push_config_set`; task cancels and push-config changes name their session; transcript reads
 * are recorded as disclosures; webhook URLs are recorded with their secrets redacted.
 */
import type { AuditEventJson } from '@pty-ws/ports';
import type { Task } from '@pty-ws/protocol';
import { TestContext, delay, http } from '@pty-ws/testkit';
import { newSession, restOk, textMessage, wsCall } from '../a2a/support';

jest.setTimeout(60_000);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await TestContext.start();
});
afterAll(async () => {
  await ctx?.dispose();
});

/** The session's audit events once `done` holds (events are written asynchronously). */
async function eventsUntil(sessionId: string, done: (events: AuditEventJson[]) => boolean): Promise<AuditEventJson[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await http(ctx.server, 'GET', `/api/v1/audit?session_id=${sessionId}`);
    const events = (res.body as { events: AuditEventJson[] }).events;
    if (done(events)) return events;
    if (Date.now() > deadline) throw new Error(`audit events incomplete: ${JSON.stringify(events, null, 1)}`);
    await delay(100);
  }
}
const typed = (events: AuditEventJson[], type: string) => events.filter((e) => e.type === type);

it('pty-ws/v1 task sends and cancels are recorded, via ws, with the session', async () => {
  const session = await newSession(ctx);
  const ws = await ctx.attach(session);
  const sent = await wsCall<{ task: Task }>(ws, 'SendMessage', { message: textMessage('echo audited') });
  expect(sent.op).toBe('SendMessage.Response');
  const started = await wsCall<{ task_id: string }>(ws, 'SendStreamingMessage', { message: textMessage('sleep 30') });
  const canceled = await wsCall<{ task: Task }>(ws, 'CancelTask', { task_id: started.payload.task_id });
  expect(canceled.op).toBe('CancelTask.Response');
  const events = await eventsUntil(
    session,
    (e) => typed(e, 'task_send').length >= 2 && typed(e, 'task_cancel').length >= 1,
  );
  expect(typed(events, 'task_send')[0]).toMatchObject({
    session_id: session,
    detail: { task_id: sent.payload.task.id, via: 'ws' },
  });
  expect(typed(events, 'task_cancel')[0]).toMatchObject({
    session_id: session,
    detail: { task_id: started.payload.task_id, via: 'ws' },
  });
});

it('an inline push config is a push_config_set with its session and a redacted URL; cancels name the session', async () => {
  const session = await newSession(ctx);
  const { task } = await restOk<{ task: Task }>(ctx, 'POST', '/message:send', {
    message: textMessage('sleep 30', session),
    configuration: {
      returnImmediately: true,
      taskPushNotificationConfig: { url: 'https://hooks.example/x?key=s3cret', token: 'tok' },
    },
  });
  await restOk(ctx, 'POST', `/tasks/${task.id}:cancel`, {});
  const events = await eventsUntil(
    session,
    (e) => typed(e, 'push_config_set').length >= 1 && typed(e, 'task_cancel').length >= 1,
  );
  const set = typed(events, 'push_config_set')[0]!;
  expect(set).toMatchObject({ session_id: session, detail: { task_id: task.id, via: 'http' } });
  expect(set.detail['url']).toBe('https://hooks.example/x?key=redacted');
  expect(JSON.stringify(events)).not.toMatch(/s3cret|"tok"/);
  expect(typed(events, 'task_cancel')[0]).toMatchObject({ session_id: session, detail: { task_id: task.id } });
});

it('a transcript read is recorded as a disclosure', async () => {
  const session = await newSession(ctx);
  const { token, token_id } = await ctx.mintToken({ scopes: ['pty:observe'], label: 'reader' });
  const res = await http(ctx.server, 'GET', `/api/v1/sessions/${session}/transcript`, { token });
  expect(res.status).toBe(200);
  const events = await eventsUntil(session, (e) => typed(e, 'transcript_read').length >= 1);
  expect(typed(events, 'transcript_read')[0]).toMatchObject({
    principal: `token:${token_id}`,
    session_id: session,
    disclosure: true,
    detail: { format: 'json', via: 'http' },
  });
});
