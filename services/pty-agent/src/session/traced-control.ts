import type { PtyRole, TerminalSize } from '@pty-ws/protocol';
import type {
  CreateSessionRequest,
  JoinRequest,
  ScreenFormat,
  SendMessageRequest,
  SessionControl,
} from '@pty-ws/ports';
import { SpanKind, inSpan, startRequestSpan, traceIdOf, type Tracer } from '@pty-ws/telemetry';

/**
 * The agent's handling of each SessionControl call as a span (`agent.<method>`), under whatever
 * context is active: the edge's request span in single-node mode, the NATS handler span in
 * cluster mode. A task request whose service parameters carry a trace id stays in that trace even
 * when no context came with it. `input` is not traced: it is the keystroke hot path.
 */
export function tracedControl(control: SessionControl, tracer: Tracer): SessionControl {
  const run = <T>(
    method: string,
    sessionId: string | undefined,
    fn: () => Promise<T>,
    serviceParameters?: Record<string, unknown>,
  ): Promise<T> => {
    const traceId = traceIdOf(serviceParameters);
    const span = startRequestSpan(tracer, `agent.${method}`, {
      kind: SpanKind.INTERNAL,
      ...(traceId ? { traceId } : {}),
      attributes: { 'ptyws.method': method, ...(sessionId ? { 'ptyws.session_id': sessionId } : {}) },
    });
    return inSpan(span, fn);
  };
  return {
    createSession: (req: CreateSessionRequest) => run('createSession', req.sessionId, () => control.createSession(req)),
    killSession: (id: string) => run('killSession', id, () => control.killSession(id)),
    join: (id: string, req: JoinRequest) => run('join', id, () => control.join(id, req)),
    leave: (id: string, clientId: string) => run('leave', id, () => control.leave(id, clientId)),
    setRole: (id: string, clientId: string, role: PtyRole, canControl: boolean) =>
      run('setRole', id, () => control.setRole(id, clientId, role, canControl)),
    releaseEdge: (edgeId: string) => control.releaseEdge(edgeId),
    input: (id: string, clientId: string, data: Uint8Array) => control.input(id, clientId, data),
    resize: (id: string, clientId: string, size: TerminalSize) =>
      run('resize', id, () => control.resize(id, clientId, size)),
    keyframe: (id: string) => run('keyframe', id, () => control.keyframe(id)),
    screen: (id: string, format: ScreenFormat) => run('screen', id, () => control.screen(id, format)),
    // Not traced: a flood makes several a second, like input.
    pace: (id: string, edgeId: string, behind: boolean) => control.pace(id, edgeId, behind),
    sendMessage: (id: string, req: SendMessageRequest) =>
      run('sendMessage', id, () => control.sendMessage(id, req), req.serviceParameters),
    createTask: (id: string, req: SendMessageRequest) =>
      run('createTask', id, () => control.createTask(id, req), req.serviceParameters),
    runTask: (id: string, taskId: string) => run('runTask', id, () => control.runTask(id, taskId)),
    getTask: (id: string, taskId: string, historyLength?: number) =>
      run('getTask', id, () => control.getTask(id, taskId, historyLength)),
    listTasks: (id: string, q: Parameters<SessionControl['listTasks']>[1]) =>
      run('listTasks', id, () => control.listTasks(id, q)),
    cancelTask: (id: string, taskId: string) => run('cancelTask', id, () => control.cancelTask(id, taskId)),
  };
}
