import type * as grpc from '@grpc/grpc-js';
import {
  A2aError,
  STREAMING_METHODS as S,
  UNARY_METHODS as M,
  type A2aOperations,
  type CallContext,
  type StreamEvent,
} from '@pty-ws/a2a';
import { A2A_TYPES, fromProtoMessage, toProtoMessage, type a2a } from '@pty-ws/a2a-proto';
import { callContext, type GrpcCallAuth } from './grpc-context';
import { toServiceError } from './grpc-errors';

export interface A2aServiceDeps extends GrpcCallAuth {
  ops: A2aOperations;
}

type Request = { tenant?: string };
type Unary<Req> = grpc.ServerUnaryCall<Req, unknown>;
type Streaming<Req> = grpc.ServerWritableStream<Req, unknown>;

/**
 * The A2A v1.0 gRPC service over the shared A2A core: each request is read as its proto3 JSON
 * (the JSON the other bindings parse, through the same parsers), the core does the work, and its
 * JSON results are written back as proto messages. No task logic lives here.
 */
export function a2aServiceHandlers(deps: A2aServiceDeps): a2a.A2AServiceHandlers {
  const { ops } = deps;
  /** A core method with this service's operations bound: `(json, ctx) => result`. */
  const core =
    <R>(method: (ops: A2aOperations, params: unknown, ctx: CallContext) => R) =>
    (json: unknown, ctx: CallContext): R =>
      method(ops, json, ctx);
  const report = (err: unknown) =>
    deps.logger?.error({ err: (err as Error)?.stack ?? String(err) }, 'gRPC A2A call failed');

  /** Unary: context, parse, call, encode; every failure becomes the mapped status. */
  const unary =
    <Req extends Request>(
      requestType: string,
      responseType: string,
      run: (json: unknown, ctx: CallContext) => Promise<unknown>,
    ) =>
    (call: Unary<Req>, callback: grpc.sendUnaryData<never>): void => {
      void (async () => {
        const ctx = await callContext(deps, call, call.request.tenant);
        const result = await run(fromProtoMessage(requestType, call.request), ctx);
        return toProtoMessage(responseType, result);
      })().then(
        (response) => callback(null, response as never),
        (err: unknown) => callback(toServiceError(err, report)),
      );
    };

  /** Server streaming: every StreamEvent as a StreamResponse, then OK; the call's end unsubscribes. */
  const streaming =
    <Req extends Request>(requestType: string, open: (json: unknown, ctx: CallContext) => AsyncIterable<StreamEvent>) =>
    (call: Streaming<Req>): void => {
      void (async () => {
        const ctx = await callContext(deps, call, call.request.tenant);
        for await (const event of open(fromProtoMessage(requestType, call.request), ctx)) {
          if (call.cancelled) break;
          call.write(toProtoMessage(A2A_TYPES.StreamResponse, event));
        }
      })().then(
        () => {
          if (!call.cancelled) call.end();
        },
        (err: unknown) => {
          if (!call.cancelled) call.emit('error', toServiceError(err, report));
        },
      );
    };

  return {
    SendMessage: unary('lf.a2a.v1.SendMessageRequest', A2A_TYPES.SendMessageResponse, core(M.SendMessage)),
    SendStreamingMessage: streaming('lf.a2a.v1.SendMessageRequest', core(S.SendStreamingMessage)),
    GetTask: unary('lf.a2a.v1.GetTaskRequest', A2A_TYPES.Task, core(M.GetTask)),
    ListTasks: unary('lf.a2a.v1.ListTasksRequest', A2A_TYPES.ListTasksResponse, core(M.ListTasks)),
    CancelTask: unary('lf.a2a.v1.CancelTaskRequest', A2A_TYPES.Task, core(M.CancelTask)),
    SubscribeToTask: streaming('lf.a2a.v1.SubscribeToTaskRequest', core(S.SubscribeToTask)),
    CreateTaskPushNotificationConfig: unary(
      A2A_TYPES.TaskPushNotificationConfig,
      A2A_TYPES.TaskPushNotificationConfig,
      core(M.SetTaskPushNotificationConfig),
    ),
    GetTaskPushNotificationConfig: unary(
      'lf.a2a.v1.GetTaskPushNotificationConfigRequest',
      A2A_TYPES.TaskPushNotificationConfig,
      core(M.GetTaskPushNotificationConfig),
    ),
    ListTaskPushNotificationConfigs: unary(
      'lf.a2a.v1.ListTaskPushNotificationConfigsRequest',
      A2A_TYPES.ListTaskPushNotificationConfigsResponse,
      core(M.ListTaskPushNotificationConfigs),
    ),
    DeleteTaskPushNotificationConfig: unary(
      'lf.a2a.v1.DeleteTaskPushNotificationConfigRequest',
      'google.protobuf.Empty',
      core(M.DeleteTaskPushNotificationConfig),
    ),
    // The AgentCard is served over HTTP (`/.well-known/agent-card.json`) and says
    // `extendedAgentCard: false`: the same A2A error as the HTTP bindings (FAILED_PRECONDITION).
    GetExtendedAgentCard: unary('lf.a2a.v1.GetExtendedAgentCardRequest', 'lf.a2a.v1.AgentCard', async () => {
      throw new A2aError('ExtendedAgentCardNotConfigured', 'no extended AgentCard: see the public AgentCard over HTTP');
    }),
  };
}
