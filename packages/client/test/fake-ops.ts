/** How the fake server answers each client op (unless a test overrides it): join flush, input, tasks. */
import {
  CLIENT_OPS,
  decodeBase64,
  newId,
  PUSH_NOTIFICATION_OPS,
  rfc3339,
  TERMINAL_TASK_STATES,
  type ClientFrame,
  type ClientFrameOf,
  type PtyRole,
  type Task,
  type TaskState,
} from '@pty-ws/protocol';
import type { FakeConn } from './fake-conn';
import type { FakeServer } from './fake-server';

export function handleInput(server: FakeServer, conn: FakeConn, bytes: Uint8Array, requestId?: string): void {
  if (conn.role !== 'controller') return conn.error('PERMISSION_DENIED', 'observers cannot send input', requestId);
  server.output(bytes);
}

/** The default answer to each client op. */
export function handleOp(server: FakeServer, conn: FakeConn, f: ClientFrame): void {
  switch (f.op) {
    case 'pty.join_session':
      return join(server, conn, f);
    case 'pty.session_input':
      return handleInput(server, conn, decodeBase64(f.payload.data), f.id);
    case 'pty.session_resize': {
      const { cols, rows } = f.payload;
      if (conn.role !== 'controller') return conn.error('PERMISSION_DENIED', 'observers cannot resize', f.id);
      if (cols < 20 || rows < 5) return conn.error('INVALID_REQUEST', 'below 20x5', f.id);
      return server.resize(cols, rows);
    }
    case 'pty.request_role':
      conn.role = f.payload.role;
      conn.sessionFrame({ kind: 'RoleAssigned', role: conn.role, client_id: conn.clientId });
      return server.membership();
    case 'pty.release_role':
      conn.role = 'observer';
      conn.sessionFrame({ kind: 'RoleAssigned', role: 'observer', client_id: conn.clientId });
      return server.membership();
    case 'pty.request_keyframe':
      return server.keyframe(conn);
    case 'pty.leave_session':
      conn.joined = false;
      server.membership();
      conn.sessionFrame({ kind: 'MembershipChanged', controllers: [], observers: [] });
      return conn.ws.close(1000, 'left');
    case 'SendMessage': {
      const task = newTask(server, 'COMPLETED');
      return conn.reply('SendMessage.Response', { task }, f.id);
    }
    case 'SendStreamingMessage': {
      const task = newTask(server, 'SUBMITTED');
      conn.subscriptions.add(task.id);
      conn.reply('SendStreamingMessage.Accepted', { task_id: task.id }, f.id);
      if (server.autoCompleteStreams) {
        server.taskUpdate(task.id, 'WORKING');
        server.taskUpdate(task.id, 'COMPLETED');
      }
      return;
    }
    case 'GetTask':
    case 'CancelTask': {
      const task = server.tasks.get(f.payload.task_id);
      if (!task) return conn.error('TASK_NOT_FOUND', `Task ${f.payload.task_id} not found`, f.id);
      if (f.op === 'GetTask') return conn.reply('GetTask.Response', { task }, f.id);
      if (TERMINAL_TASK_STATES.has(task.status.state))
        return conn.error('TASK_NOT_CANCELABLE', 'task is terminal', f.id);
      server.taskUpdate(task.id, 'CANCELED');
      return conn.reply('CancelTask.Response', { task }, f.id);
    }
    case 'ListTasks':
      return conn.reply('ListTasks.Response', { tasks: [...server.tasks.values()], next_page_token: '' }, f.id);
    case 'SubscribeToTask': {
      const taskId = f.payload.task_id;
      if (!server.tasks.has(taskId)) return conn.error('TASK_NOT_FOUND', `Task ${taskId} not found`, f.id);
      if (typeof f.replay_from === 'number' && f.replay_from < server.evictedThrough) {
        return conn.error('REPLAY_OUT_OF_RANGE', 'replay_from precedes retained frames', f.id);
      }
      conn.subscriptions.add(taskId);
      conn.reply('SubscribeToTask.Accepted', { current_sequence: server.seq }, f.id);
      if (typeof f.replay_from === 'number') replay(server, conn, f.replay_from, taskId);
      return;
    }
    case 'Unsubscribe':
      conn.subscriptions.delete(f.payload.task_id);
      return conn.reply('Unsubscribe.Response', {}, f.id);
    case 'UpdateServiceParameters':
      return conn.reply('UpdateServiceParameters.Response', {}, f.id);
    case 'ping':
      return conn.reply('pong', { client_ts: f.payload.client_ts, server_ts: rfc3339() }, f.id);
    default:
      if (PUSH_NOTIFICATION_OPS.has(f.op) || !(f.op in CLIENT_OPS)) {
        return conn.error('UNSUPPORTED_OPERATION', `unsupported operation '${f.op}'`, f.id);
      }
  }
}

/** Join flush per README interpretation 3. */
function join(server: FakeServer, conn: FakeConn, f: ClientFrameOf<'pty.join_session'>): void {
  const p = f.payload;
  const controllers = server.attached().filter((c) => c.role === 'controller').length;
  let role: PtyRole = p.role ?? server.options.defaultRole ?? 'controller';
  let downgraded = false;
  if (role === 'controller' && controllers >= (server.options.maxControllers ?? 4)) {
    role = 'observer';
    downgraded = true;
  }
  conn.role = role;
  conn.label = p.client_label;
  if (p.cols !== undefined && p.rows !== undefined && server.seq === 0) {
    server.cols = p.cols;
    server.rows = p.rows;
  }
  conn.sessionFrame(
    downgraded
      ? { kind: 'RoleAssigned', role, client_id: conn.clientId, downgraded: true, reason: 'max_controllers' }
      : { kind: 'RoleAssigned', role, client_id: conn.clientId },
  );
  if (typeof f.replay_from === 'number') {
    if (f.replay_from < server.evictedThrough)
      conn.error('REPLAY_OUT_OF_RANGE', 'replay_from precedes retained frames', f.id);
    else replay(server, conn, f.replay_from);
  }
  conn.joined = true;
  server.membership();
  server.keyframe(conn);
}

/** Logged frames after `from`, as JSON (binding §3.1: replay stays JSON), filtered per interpretation 2. */
function replay(server: FakeServer, conn: FakeConn, from: number, onlyTask?: string): void {
  for (const entry of server.log) {
    const seq = entry.frame.sequence!;
    if (seq <= from) continue;
    if (
      onlyTask !== undefined
        ? entry.taskId !== onlyTask
        : entry.taskId !== undefined && !conn.subscriptions.has(entry.taskId)
    )
      continue;
    conn.lastSeq = seq;
    conn.send(entry.frame);
  }
}

function newTask(server: FakeServer, state: TaskState): Task {
  const task: Task = { id: newId(), context_id: newId(), status: { state, timestamp: rfc3339() } };
  server.tasks.set(task.id, task);
  return task;
}
