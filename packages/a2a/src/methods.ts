import type {
  A2aOperations,
  CallContext,
  ListTaskPushNotificationConfigsResult,
  ListTasksResult,
  SendMessageResult,
  StreamEvent,
  TaskPushNotificationConfig,
} from './a2a-operations';
import type { Task } from '@pty-ws/protocol';
import {
  parseCancelTask,
  parseGetTask,
  parseListPushConfigs,
  parseListTasks,
  parsePushConfig,
  parsePushConfigRef,
  parseSendMessage,
  parseSubscribe,
} from './parse';

type Unary<R> = (ops: A2aOperations, params: unknown, ctx: CallContext) => Promise<R>;
type Streaming = (ops: A2aOperations, params: unknown, ctx: CallContext) => AsyncIterable<StreamEvent>;

interface UnaryMethods {
  SendMessage: Unary<SendMessageResult>;
  GetTask: Unary<Task>;
  ListTasks: Unary<ListTasksResult>;
  CancelTask: Unary<Task>;
  SetTaskPushNotificationConfig: Unary<TaskPushNotificationConfig>;
  GetTaskPushNotificationConfig: Unary<TaskPushNotificationConfig>;
  ListTaskPushNotificationConfigs: Unary<ListTaskPushNotificationConfigsResult>;
  DeleteTaskPushNotificationConfig: Unary<Record<string, never>>;
}

/**
 * The unary A2A v1.0 methods by name, for bindings whose request is one params object (JSON-RPC,
 * gRPC's proto3 JSON): its parser and the core operation, so each binding only reads its wire
 * format and renders the result. (HTTP+JSON takes ids from the path and calls the parsers itself.)
 */
export const UNARY_METHODS: UnaryMethods = {
  SendMessage: (ops, p, ctx) => ops.sendMessage(parseSendMessage(p), ctx),
  GetTask: (ops, p, ctx) => ops.getTask(parseGetTask(p), ctx),
  ListTasks: (ops, p, ctx) => ops.listTasks(parseListTasks(p), ctx),
  CancelTask: (ops, p, ctx) => ops.cancelTask(parseCancelTask(p), ctx),
  SetTaskPushNotificationConfig: (ops, p, ctx) => ops.setTaskPushNotificationConfig(parsePushConfig(p), ctx),
  GetTaskPushNotificationConfig: (ops, p, ctx) => ops.getTaskPushNotificationConfig(parsePushConfigRef(p), ctx),
  ListTaskPushNotificationConfigs: (ops, p, ctx) => ops.listTaskPushNotificationConfigs(parseListPushConfigs(p), ctx),
  /** Answers `{}` (google.protobuf.Empty, the JSON-RPC result). */
  DeleteTaskPushNotificationConfig: async (ops, p, ctx) => {
    await ops.deleteTaskPushNotificationConfig(parsePushConfigRef(p), ctx);
    return {};
  },
};

/** The streaming methods (the first event is the task snapshot). */
export const STREAMING_METHODS: Readonly<Record<'SendStreamingMessage' | 'SubscribeToTask', Streaming>> = {
  SendStreamingMessage: (ops, p, ctx) => ops.sendStreamingMessage(parseSendMessage(p), ctx),
  SubscribeToTask: (ops, p, ctx) => ops.subscribeToTask(parseSubscribe(p), ctx),
};

/**
 * Every operation of `ops` as a plain function bound to it (the core is a class instance): the base
 * a wrapper spreads before replacing the operations it decorates.
 */
export function bindOperations(ops: A2aOperations): A2aOperations {
  return {
    sendMessage: (p, c) => ops.sendMessage(p, c),
    sendStreamingMessage: (p, c) => ops.sendStreamingMessage(p, c),
    getTask: (p, c) => ops.getTask(p, c),
    listTasks: (p, c) => ops.listTasks(p, c),
    cancelTask: (p, c) => ops.cancelTask(p, c),
    subscribeToTask: (p, c) => ops.subscribeToTask(p, c),
    setTaskPushNotificationConfig: (p, c) => ops.setTaskPushNotificationConfig(p, c),
    getTaskPushNotificationConfig: (p, c) => ops.getTaskPushNotificationConfig(p, c),
    listTaskPushNotificationConfigs: (p, c) => ops.listTaskPushNotificationConfigs(p, c),
    deleteTaskPushNotificationConfig: (p, c) => ops.deleteTaskPushNotificationConfig(p, c),
  };
}
