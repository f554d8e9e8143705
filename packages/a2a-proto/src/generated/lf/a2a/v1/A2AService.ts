// Original file: proto/lf/a2a/v1/a2a.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AgentCard as _lf_a2a_v1_AgentCard, AgentCard__Output as _lf_a2a_v1_AgentCard__Output } from '../../../lf/a2a/v1/AgentCard';
import type { CancelTaskRequest as _lf_a2a_v1_CancelTaskRequest, CancelTaskRequest__Output as _lf_a2a_v1_CancelTaskRequest__Output } from '../../../lf/a2a/v1/CancelTaskRequest';
import type { DeleteTaskPushNotificationConfigRequest as _lf_a2a_v1_DeleteTaskPushNotificationConfigRequest, DeleteTaskPushNotificationConfigRequest__Output as _lf_a2a_v1_DeleteTaskPushNotificationConfigRequest__Output } from '../../../lf/a2a/v1/DeleteTaskPushNotificationConfigRequest';
import type { Empty as _google_protobuf_Empty, Empty__Output as _google_protobuf_Empty__Output } from '../../../google/protobuf/Empty';
import type { GetExtendedAgentCardRequest as _lf_a2a_v1_GetExtendedAgentCardRequest, GetExtendedAgentCardRequest__Output as _lf_a2a_v1_GetExtendedAgentCardRequest__Output } from '../../../lf/a2a/v1/GetExtendedAgentCardRequest';
import type { GetTaskPushNotificationConfigRequest as _lf_a2a_v1_GetTaskPushNotificationConfigRequest, GetTaskPushNotificationConfigRequest__Output as _lf_a2a_v1_GetTaskPushNotificationConfigRequest__Output } from '../../../lf/a2a/v1/GetTaskPushNotificationConfigRequest';
import type { GetTaskRequest as _lf_a2a_v1_GetTaskRequest, GetTaskRequest__Output as _lf_a2a_v1_GetTaskRequest__Output } from '../../../lf/a2a/v1/GetTaskRequest';
import type { ListTaskPushNotificationConfigsRequest as _lf_a2a_v1_ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsRequest__Output as _lf_a2a_v1_ListTaskPushNotificationConfigsRequest__Output } from '../../../lf/a2a/v1/ListTaskPushNotificationConfigsRequest';
import type { ListTaskPushNotificationConfigsResponse as _lf_a2a_v1_ListTaskPushNotificationConfigsResponse, ListTaskPushNotificationConfigsResponse__Output as _lf_a2a_v1_ListTaskPushNotificationConfigsResponse__Output } from '../../../lf/a2a/v1/ListTaskPushNotificationConfigsResponse';
import type { ListTasksRequest as _lf_a2a_v1_ListTasksRequest, ListTasksRequest__Output as _lf_a2a_v1_ListTasksRequest__Output } from '../../../lf/a2a/v1/ListTasksRequest';
import type { ListTasksResponse as _lf_a2a_v1_ListTasksResponse, ListTasksResponse__Output as _lf_a2a_v1_ListTasksResponse__Output } from '../../../lf/a2a/v1/ListTasksResponse';
import type { SendMessageRequest as _lf_a2a_v1_SendMessageRequest, SendMessageRequest__Output as _lf_a2a_v1_SendMessageRequest__Output } from '../../../lf/a2a/v1/SendMessageRequest';
import type { SendMessageResponse as _lf_a2a_v1_SendMessageResponse, SendMessageResponse__Output as _lf_a2a_v1_SendMessageResponse__Output } from '../../../lf/a2a/v1/SendMessageResponse';
import type { StreamResponse as _lf_a2a_v1_StreamResponse, StreamResponse__Output as _lf_a2a_v1_StreamResponse__Output } from '../../../lf/a2a/v1/StreamResponse';
import type { SubscribeToTaskRequest as _lf_a2a_v1_SubscribeToTaskRequest, SubscribeToTaskRequest__Output as _lf_a2a_v1_SubscribeToTaskRequest__Output } from '../../../lf/a2a/v1/SubscribeToTaskRequest';
import type { Task as _lf_a2a_v1_Task, Task__Output as _lf_a2a_v1_Task__Output } from '../../../lf/a2a/v1/Task';
import type { TaskPushNotificationConfig as _lf_a2a_v1_TaskPushNotificationConfig, TaskPushNotificationConfig__Output as _lf_a2a_v1_TaskPushNotificationConfig__Output } from '../../../lf/a2a/v1/TaskPushNotificationConfig';

/**
 * Provides operations for interacting with agents using the A2A protocol.
 */
export interface A2AServiceClient extends grpc.Client {
  /**
   * Cancels a task in progress.
   */
  CancelTask(argument: _lf_a2a_v1_CancelTaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  CancelTask(argument: _lf_a2a_v1_CancelTaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  CancelTask(argument: _lf_a2a_v1_CancelTaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  CancelTask(argument: _lf_a2a_v1_CancelTaskRequest, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  /**
   * Cancels a task in progress.
   */
  cancelTask(argument: _lf_a2a_v1_CancelTaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  cancelTask(argument: _lf_a2a_v1_CancelTaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  cancelTask(argument: _lf_a2a_v1_CancelTaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  cancelTask(argument: _lf_a2a_v1_CancelTaskRequest, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  
  /**
   * (-- api-linter: client-libraries::4232::required-fields=disabled
   * api-linter: core::0133::method-signature=disabled
   * api-linter: core::0133::request-message-name=disabled
   * aip.dev/not-precedent: method_signature preserved for backwards compatibility --)
   * Creates a push notification config for a task.
   */
  CreateTaskPushNotificationConfig(argument: _lf_a2a_v1_TaskPushNotificationConfig, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  CreateTaskPushNotificationConfig(argument: _lf_a2a_v1_TaskPushNotificationConfig, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  CreateTaskPushNotificationConfig(argument: _lf_a2a_v1_TaskPushNotificationConfig, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  CreateTaskPushNotificationConfig(argument: _lf_a2a_v1_TaskPushNotificationConfig, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  /**
   * (-- api-linter: client-libraries::4232::required-fields=disabled
   * api-linter: core::0133::method-signature=disabled
   * api-linter: core::0133::request-message-name=disabled
   * aip.dev/not-precedent: method_signature preserved for backwards compatibility --)
   * Creates a push notification config for a task.
   */
  createTaskPushNotificationConfig(argument: _lf_a2a_v1_TaskPushNotificationConfig, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  createTaskPushNotificationConfig(argument: _lf_a2a_v1_TaskPushNotificationConfig, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  createTaskPushNotificationConfig(argument: _lf_a2a_v1_TaskPushNotificationConfig, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  createTaskPushNotificationConfig(argument: _lf_a2a_v1_TaskPushNotificationConfig, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  
  /**
   * Deletes a push notification config for a task.
   */
  DeleteTaskPushNotificationConfig(argument: _lf_a2a_v1_DeleteTaskPushNotificationConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  DeleteTaskPushNotificationConfig(argument: _lf_a2a_v1_DeleteTaskPushNotificationConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  DeleteTaskPushNotificationConfig(argument: _lf_a2a_v1_DeleteTaskPushNotificationConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  DeleteTaskPushNotificationConfig(argument: _lf_a2a_v1_DeleteTaskPushNotificationConfigRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  /**
   * Deletes a push notification config for a task.
   */
  deleteTaskPushNotificationConfig(argument: _lf_a2a_v1_DeleteTaskPushNotificationConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteTaskPushNotificationConfig(argument: _lf_a2a_v1_DeleteTaskPushNotificationConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteTaskPushNotificationConfig(argument: _lf_a2a_v1_DeleteTaskPushNotificationConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteTaskPushNotificationConfig(argument: _lf_a2a_v1_DeleteTaskPushNotificationConfigRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  
  /**
   * Gets the extended agent card for the authenticated agent.
   */
  GetExtendedAgentCard(argument: _lf_a2a_v1_GetExtendedAgentCardRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_AgentCard__Output>): grpc.ClientUnaryCall;
  GetExtendedAgentCard(argument: _lf_a2a_v1_GetExtendedAgentCardRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_AgentCard__Output>): grpc.ClientUnaryCall;
  GetExtendedAgentCard(argument: _lf_a2a_v1_GetExtendedAgentCardRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_AgentCard__Output>): grpc.ClientUnaryCall;
  GetExtendedAgentCard(argument: _lf_a2a_v1_GetExtendedAgentCardRequest, callback: grpc.requestCallback<_lf_a2a_v1_AgentCard__Output>): grpc.ClientUnaryCall;
  /**
   * Gets the extended agent card for the authenticated agent.
   */
  getExtendedAgentCard(argument: _lf_a2a_v1_GetExtendedAgentCardRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_AgentCard__Output>): grpc.ClientUnaryCall;
  getExtendedAgentCard(argument: _lf_a2a_v1_GetExtendedAgentCardRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_AgentCard__Output>): grpc.ClientUnaryCall;
  getExtendedAgentCard(argument: _lf_a2a_v1_GetExtendedAgentCardRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_AgentCard__Output>): grpc.ClientUnaryCall;
  getExtendedAgentCard(argument: _lf_a2a_v1_GetExtendedAgentCardRequest, callback: grpc.requestCallback<_lf_a2a_v1_AgentCard__Output>): grpc.ClientUnaryCall;
  
  /**
   * Gets the latest state of a task.
   */
  GetTask(argument: _lf_a2a_v1_GetTaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  GetTask(argument: _lf_a2a_v1_GetTaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  GetTask(argument: _lf_a2a_v1_GetTaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  GetTask(argument: _lf_a2a_v1_GetTaskRequest, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  /**
   * Gets the latest state of a task.
   */
  getTask(argument: _lf_a2a_v1_GetTaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  getTask(argument: _lf_a2a_v1_GetTaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  getTask(argument: _lf_a2a_v1_GetTaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  getTask(argument: _lf_a2a_v1_GetTaskRequest, callback: grpc.requestCallback<_lf_a2a_v1_Task__Output>): grpc.ClientUnaryCall;
  
  /**
   * Gets a push notification config for a task.
   */
  GetTaskPushNotificationConfig(argument: _lf_a2a_v1_GetTaskPushNotificationConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  GetTaskPushNotificationConfig(argument: _lf_a2a_v1_GetTaskPushNotificationConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  GetTaskPushNotificationConfig(argument: _lf_a2a_v1_GetTaskPushNotificationConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  GetTaskPushNotificationConfig(argument: _lf_a2a_v1_GetTaskPushNotificationConfigRequest, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  /**
   * Gets a push notification config for a task.
   */
  getTaskPushNotificationConfig(argument: _lf_a2a_v1_GetTaskPushNotificationConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  getTaskPushNotificationConfig(argument: _lf_a2a_v1_GetTaskPushNotificationConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  getTaskPushNotificationConfig(argument: _lf_a2a_v1_GetTaskPushNotificationConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  getTaskPushNotificationConfig(argument: _lf_a2a_v1_GetTaskPushNotificationConfigRequest, callback: grpc.requestCallback<_lf_a2a_v1_TaskPushNotificationConfig__Output>): grpc.ClientUnaryCall;
  
  /**
   * Get a list of push notifications configured for a task.
   */
  ListTaskPushNotificationConfigs(argument: _lf_a2a_v1_ListTaskPushNotificationConfigsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_ListTaskPushNotificationConfigsResponse__Output>): grpc.ClientUnaryCall;
  ListTaskPushNotificationConfigs(argument: _lf_a2a_v1_ListTaskPushNotificationConfigsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_ListTaskPushNotificationConfigsResponse__Output>): grpc.ClientUnaryCall;
  ListTaskPushNotificationConfigs(argument: _lf_a2a_v1_ListTaskPushNotificationConfigsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_ListTaskPushNotificationConfigsResponse__Output>): grpc.ClientUnaryCall;
  ListTaskPushNotificationConfigs(argument: _lf_a2a_v1_ListTaskPushNotificationConfigsRequest, callback: grpc.requestCallback<_lf_a2a_v1_ListTaskPushNotificationConfigsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Get a list of push notifications configured for a task.
   */
  listTaskPushNotificationConfigs(argument: _lf_a2a_v1_ListTaskPushNotificationConfigsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_ListTaskPushNotificationConfigsResponse__Output>): grpc.ClientUnaryCall;
  listTaskPushNotificationConfigs(argument: _lf_a2a_v1_ListTaskPushNotificationConfigsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_ListTaskPushNotificationConfigsResponse__Output>): grpc.ClientUnaryCall;
  listTaskPushNotificationConfigs(argument: _lf_a2a_v1_ListTaskPushNotificationConfigsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_ListTaskPushNotificationConfigsResponse__Output>): grpc.ClientUnaryCall;
  listTaskPushNotificationConfigs(argument: _lf_a2a_v1_ListTaskPushNotificationConfigsRequest, callback: grpc.requestCallback<_lf_a2a_v1_ListTaskPushNotificationConfigsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Lists tasks that match the specified filter.
   */
  ListTasks(argument: _lf_a2a_v1_ListTasksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_ListTasksResponse__Output>): grpc.ClientUnaryCall;
  ListTasks(argument: _lf_a2a_v1_ListTasksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_ListTasksResponse__Output>): grpc.ClientUnaryCall;
  ListTasks(argument: _lf_a2a_v1_ListTasksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_ListTasksResponse__Output>): grpc.ClientUnaryCall;
  ListTasks(argument: _lf_a2a_v1_ListTasksRequest, callback: grpc.requestCallback<_lf_a2a_v1_ListTasksResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Lists tasks that match the specified filter.
   */
  listTasks(argument: _lf_a2a_v1_ListTasksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_ListTasksResponse__Output>): grpc.ClientUnaryCall;
  listTasks(argument: _lf_a2a_v1_ListTasksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_ListTasksResponse__Output>): grpc.ClientUnaryCall;
  listTasks(argument: _lf_a2a_v1_ListTasksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_ListTasksResponse__Output>): grpc.ClientUnaryCall;
  listTasks(argument: _lf_a2a_v1_ListTasksRequest, callback: grpc.requestCallback<_lf_a2a_v1_ListTasksResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Sends a message to an agent.
   */
  SendMessage(argument: _lf_a2a_v1_SendMessageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_SendMessageResponse__Output>): grpc.ClientUnaryCall;
  SendMessage(argument: _lf_a2a_v1_SendMessageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_SendMessageResponse__Output>): grpc.ClientUnaryCall;
  SendMessage(argument: _lf_a2a_v1_SendMessageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_SendMessageResponse__Output>): grpc.ClientUnaryCall;
  SendMessage(argument: _lf_a2a_v1_SendMessageRequest, callback: grpc.requestCallback<_lf_a2a_v1_SendMessageResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Sends a message to an agent.
   */
  sendMessage(argument: _lf_a2a_v1_SendMessageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_SendMessageResponse__Output>): grpc.ClientUnaryCall;
  sendMessage(argument: _lf_a2a_v1_SendMessageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_lf_a2a_v1_SendMessageResponse__Output>): grpc.ClientUnaryCall;
  sendMessage(argument: _lf_a2a_v1_SendMessageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_lf_a2a_v1_SendMessageResponse__Output>): grpc.ClientUnaryCall;
  sendMessage(argument: _lf_a2a_v1_SendMessageRequest, callback: grpc.requestCallback<_lf_a2a_v1_SendMessageResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Sends a streaming message to an agent, allowing for real-time interaction and status updates.
   * Streaming version of `SendMessage`
   */
  SendStreamingMessage(argument: _lf_a2a_v1_SendMessageRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_lf_a2a_v1_StreamResponse__Output>;
  SendStreamingMessage(argument: _lf_a2a_v1_SendMessageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_lf_a2a_v1_StreamResponse__Output>;
  /**
   * Sends a streaming message to an agent, allowing for real-time interaction and status updates.
   * Streaming version of `SendMessage`
   */
  sendStreamingMessage(argument: _lf_a2a_v1_SendMessageRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_lf_a2a_v1_StreamResponse__Output>;
  sendStreamingMessage(argument: _lf_a2a_v1_SendMessageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_lf_a2a_v1_StreamResponse__Output>;
  
  /**
   * Subscribes to task updates for tasks not in a terminal state.
   * Returns `UnsupportedOperationError` if the task is already in a terminal state (completed, failed, canceled, rejected).
   */
  SubscribeToTask(argument: _lf_a2a_v1_SubscribeToTaskRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_lf_a2a_v1_StreamResponse__Output>;
  SubscribeToTask(argument: _lf_a2a_v1_SubscribeToTaskRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_lf_a2a_v1_StreamResponse__Output>;
  /**
   * Subscribes to task updates for tasks not in a terminal state.
   * Returns `UnsupportedOperationError` if the task is already in a terminal state (completed, failed, canceled, rejected).
   */
  subscribeToTask(argument: _lf_a2a_v1_SubscribeToTaskRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_lf_a2a_v1_StreamResponse__Output>;
  subscribeToTask(argument: _lf_a2a_v1_SubscribeToTaskRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_lf_a2a_v1_StreamResponse__Output>;
  
}

/**
 * Provides operations for interacting with agents using the A2A protocol.
 */
export interface A2AServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Cancels a task in progress.
   */
  CancelTask: grpc.handleUnaryCall<_lf_a2a_v1_CancelTaskRequest__Output, _lf_a2a_v1_Task>;
  
  /**
   * (-- api-linter: client-libraries::4232::required-fields=disabled
   * api-linter: core::0133::method-signature=disabled
   * api-linter: core::0133::request-message-name=disabled
   * aip.dev/not-precedent: method_signature preserved for backwards compatibility --)
   * Creates a push notification config for a task.
   */
  CreateTaskPushNotificationConfig: grpc.handleUnaryCall<_lf_a2a_v1_TaskPushNotificationConfig__Output, _lf_a2a_v1_TaskPushNotificationConfig>;
  
  /**
   * Deletes a push notification config for a task.
   */
  DeleteTaskPushNotificationConfig: grpc.handleUnaryCall<_lf_a2a_v1_DeleteTaskPushNotificationConfigRequest__Output, _google_protobuf_Empty>;
  
  /**
   * Gets the extended agent card for the authenticated agent.
   */
  GetExtendedAgentCard: grpc.handleUnaryCall<_lf_a2a_v1_GetExtendedAgentCardRequest__Output, _lf_a2a_v1_AgentCard>;
  
  /**
   * Gets the latest state of a task.
   */
  GetTask: grpc.handleUnaryCall<_lf_a2a_v1_GetTaskRequest__Output, _lf_a2a_v1_Task>;
  
  /**
   * Gets a push notification config for a task.
   */
  GetTaskPushNotificationConfig: grpc.handleUnaryCall<_lf_a2a_v1_GetTaskPushNotificationConfigRequest__Output, _lf_a2a_v1_TaskPushNotificationConfig>;
  
  /**
   * Get a list of push notifications configured for a task.
   */
  ListTaskPushNotificationConfigs: grpc.handleUnaryCall<_lf_a2a_v1_ListTaskPushNotificationConfigsRequest__Output, _lf_a2a_v1_ListTaskPushNotificationConfigsResponse>;
  
  /**
   * Lists tasks that match the specified filter.
   */
  ListTasks: grpc.handleUnaryCall<_lf_a2a_v1_ListTasksRequest__Output, _lf_a2a_v1_ListTasksResponse>;
  
  /**
   * Sends a message to an agent.
   */
  SendMessage: grpc.handleUnaryCall<_lf_a2a_v1_SendMessageRequest__Output, _lf_a2a_v1_SendMessageResponse>;
  
  /**
   * Sends a streaming message to an agent, allowing for real-time interaction and status updates.
   * Streaming version of `SendMessage`
   */
  SendStreamingMessage: grpc.handleServerStreamingCall<_lf_a2a_v1_SendMessageRequest__Output, _lf_a2a_v1_StreamResponse>;
  
  /**
   * Subscribes to task updates for tasks not in a terminal state.
   * Returns `UnsupportedOperationError` if the task is already in a terminal state (completed, failed, canceled, rejected).
   */
  SubscribeToTask: grpc.handleServerStreamingCall<_lf_a2a_v1_SubscribeToTaskRequest__Output, _lf_a2a_v1_StreamResponse>;
  
}

export interface A2AServiceDefinition extends grpc.ServiceDefinition {
  CancelTask: MethodDefinition<_lf_a2a_v1_CancelTaskRequest, _lf_a2a_v1_Task, _lf_a2a_v1_CancelTaskRequest__Output, _lf_a2a_v1_Task__Output>
  CreateTaskPushNotificationConfig: MethodDefinition<_lf_a2a_v1_TaskPushNotificationConfig, _lf_a2a_v1_TaskPushNotificationConfig, _lf_a2a_v1_TaskPushNotificationConfig__Output, _lf_a2a_v1_TaskPushNotificationConfig__Output>
  DeleteTaskPushNotificationConfig: MethodDefinition<_lf_a2a_v1_DeleteTaskPushNotificationConfigRequest, _google_protobuf_Empty, _lf_a2a_v1_DeleteTaskPushNotificationConfigRequest__Output, _google_protobuf_Empty__Output>
  GetExtendedAgentCard: MethodDefinition<_lf_a2a_v1_GetExtendedAgentCardRequest, _lf_a2a_v1_AgentCard, _lf_a2a_v1_GetExtendedAgentCardRequest__Output, _lf_a2a_v1_AgentCard__Output>
  GetTask: MethodDefinition<_lf_a2a_v1_GetTaskRequest, _lf_a2a_v1_Task, _lf_a2a_v1_GetTaskRequest__Output, _lf_a2a_v1_Task__Output>
  GetTaskPushNotificationConfig: MethodDefinition<_lf_a2a_v1_GetTaskPushNotificationConfigRequest, _lf_a2a_v1_TaskPushNotificationConfig, _lf_a2a_v1_GetTaskPushNotificationConfigRequest__Output, _lf_a2a_v1_TaskPushNotificationConfig__Output>
  ListTaskPushNotificationConfigs: MethodDefinition<_lf_a2a_v1_ListTaskPushNotificationConfigsRequest, _lf_a2a_v1_ListTaskPushNotificationConfigsResponse, _lf_a2a_v1_ListTaskPushNotificationConfigsRequest__Output, _lf_a2a_v1_ListTaskPushNotificationConfigsResponse__Output>
  ListTasks: MethodDefinition<_lf_a2a_v1_ListTasksRequest, _lf_a2a_v1_ListTasksResponse, _lf_a2a_v1_ListTasksRequest__Output, _lf_a2a_v1_ListTasksResponse__Output>
  SendMessage: MethodDefinition<_lf_a2a_v1_SendMessageRequest, _lf_a2a_v1_SendMessageResponse, _lf_a2a_v1_SendMessageRequest__Output, _lf_a2a_v1_SendMessageResponse__Output>
  SendStreamingMessage: MethodDefinition<_lf_a2a_v1_SendMessageRequest, _lf_a2a_v1_StreamResponse, _lf_a2a_v1_SendMessageRequest__Output, _lf_a2a_v1_StreamResponse__Output>
  SubscribeToTask: MethodDefinition<_lf_a2a_v1_SubscribeToTaskRequest, _lf_a2a_v1_StreamResponse, _lf_a2a_v1_SubscribeToTaskRequest__Output, _lf_a2a_v1_StreamResponse__Output>
}
