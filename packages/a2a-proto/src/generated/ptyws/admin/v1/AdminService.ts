// Original file: proto/ptyws/admin/v1/admin.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateSessionRequest as _ptyws_admin_v1_CreateSessionRequest, CreateSessionRequest__Output as _ptyws_admin_v1_CreateSessionRequest__Output } from '../../../ptyws/admin/v1/CreateSessionRequest';
import type { CreateTokenRequest as _ptyws_admin_v1_CreateTokenRequest, CreateTokenRequest__Output as _ptyws_admin_v1_CreateTokenRequest__Output } from '../../../ptyws/admin/v1/CreateTokenRequest';
import type { CreateTokenResponse as _ptyws_admin_v1_CreateTokenResponse, CreateTokenResponse__Output as _ptyws_admin_v1_CreateTokenResponse__Output } from '../../../ptyws/admin/v1/CreateTokenResponse';
import type { GetSessionRequest as _ptyws_admin_v1_GetSessionRequest, GetSessionRequest__Output as _ptyws_admin_v1_GetSessionRequest__Output } from '../../../ptyws/admin/v1/GetSessionRequest';
import type { KillSessionRequest as _ptyws_admin_v1_KillSessionRequest, KillSessionRequest__Output as _ptyws_admin_v1_KillSessionRequest__Output } from '../../../ptyws/admin/v1/KillSessionRequest';
import type { ListSessionsRequest as _ptyws_admin_v1_ListSessionsRequest, ListSessionsRequest__Output as _ptyws_admin_v1_ListSessionsRequest__Output } from '../../../ptyws/admin/v1/ListSessionsRequest';
import type { ListSessionsResponse as _ptyws_admin_v1_ListSessionsResponse, ListSessionsResponse__Output as _ptyws_admin_v1_ListSessionsResponse__Output } from '../../../ptyws/admin/v1/ListSessionsResponse';
import type { ListTokensRequest as _ptyws_admin_v1_ListTokensRequest, ListTokensRequest__Output as _ptyws_admin_v1_ListTokensRequest__Output } from '../../../ptyws/admin/v1/ListTokensRequest';
import type { ListTokensResponse as _ptyws_admin_v1_ListTokensResponse, ListTokensResponse__Output as _ptyws_admin_v1_ListTokensResponse__Output } from '../../../ptyws/admin/v1/ListTokensResponse';
import type { RevokeTokenRequest as _ptyws_admin_v1_RevokeTokenRequest, RevokeTokenRequest__Output as _ptyws_admin_v1_RevokeTokenRequest__Output } from '../../../ptyws/admin/v1/RevokeTokenRequest';
import type { Session as _ptyws_admin_v1_Session, Session__Output as _ptyws_admin_v1_Session__Output } from '../../../ptyws/admin/v1/Session';
import type { Token as _ptyws_admin_v1_Token, Token__Output as _ptyws_admin_v1_Token__Output } from '../../../ptyws/admin/v1/Token';

/**
 * Sessions (terminals) and access tokens of the instance this edge serves.
 */
export interface AdminServiceClient extends grpc.Client {
  /**
   * Starts a session on an agent of the instance (REST: POST /api/v1/sessions).
   */
  CreateSession(argument: _ptyws_admin_v1_CreateSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  CreateSession(argument: _ptyws_admin_v1_CreateSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  CreateSession(argument: _ptyws_admin_v1_CreateSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  CreateSession(argument: _ptyws_admin_v1_CreateSessionRequest, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  /**
   * Starts a session on an agent of the instance (REST: POST /api/v1/sessions).
   */
  createSession(argument: _ptyws_admin_v1_CreateSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  createSession(argument: _ptyws_admin_v1_CreateSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  createSession(argument: _ptyws_admin_v1_CreateSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  createSession(argument: _ptyws_admin_v1_CreateSessionRequest, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  
  /**
   * Mints a token; the secret is returned once, only its hash is stored (REST: POST /api/v1/tokens).
   */
  CreateToken(argument: _ptyws_admin_v1_CreateTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_CreateTokenResponse__Output>): grpc.ClientUnaryCall;
  CreateToken(argument: _ptyws_admin_v1_CreateTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_CreateTokenResponse__Output>): grpc.ClientUnaryCall;
  CreateToken(argument: _ptyws_admin_v1_CreateTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_CreateTokenResponse__Output>): grpc.ClientUnaryCall;
  CreateToken(argument: _ptyws_admin_v1_CreateTokenRequest, callback: grpc.requestCallback<_ptyws_admin_v1_CreateTokenResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Mints a token; the secret is returned once, only its hash is stored (REST: POST /api/v1/tokens).
   */
  createToken(argument: _ptyws_admin_v1_CreateTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_CreateTokenResponse__Output>): grpc.ClientUnaryCall;
  createToken(argument: _ptyws_admin_v1_CreateTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_CreateTokenResponse__Output>): grpc.ClientUnaryCall;
  createToken(argument: _ptyws_admin_v1_CreateTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_CreateTokenResponse__Output>): grpc.ClientUnaryCall;
  createToken(argument: _ptyws_admin_v1_CreateTokenRequest, callback: grpc.requestCallback<_ptyws_admin_v1_CreateTokenResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * One session; NOT_FOUND when it does not exist on this instance (REST: GET /api/v1/sessions/{id}).
   */
  GetSession(argument: _ptyws_admin_v1_GetSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  GetSession(argument: _ptyws_admin_v1_GetSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  GetSession(argument: _ptyws_admin_v1_GetSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  GetSession(argument: _ptyws_admin_v1_GetSessionRequest, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  /**
   * One session; NOT_FOUND when it does not exist on this instance (REST: GET /api/v1/sessions/{id}).
   */
  getSession(argument: _ptyws_admin_v1_GetSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  getSession(argument: _ptyws_admin_v1_GetSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  getSession(argument: _ptyws_admin_v1_GetSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  getSession(argument: _ptyws_admin_v1_GetSessionRequest, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  
  /**
   * Ends a session's process and returns its record (REST: DELETE /api/v1/sessions/{id}).
   */
  KillSession(argument: _ptyws_admin_v1_KillSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  KillSession(argument: _ptyws_admin_v1_KillSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  KillSession(argument: _ptyws_admin_v1_KillSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  KillSession(argument: _ptyws_admin_v1_KillSessionRequest, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  /**
   * Ends a session's process and returns its record (REST: DELETE /api/v1/sessions/{id}).
   */
  killSession(argument: _ptyws_admin_v1_KillSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  killSession(argument: _ptyws_admin_v1_KillSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  killSession(argument: _ptyws_admin_v1_KillSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  killSession(argument: _ptyws_admin_v1_KillSessionRequest, callback: grpc.requestCallback<_ptyws_admin_v1_Session__Output>): grpc.ClientUnaryCall;
  
  /**
   * Lists the instance's sessions, oldest first (REST: GET /api/v1/sessions).
   */
  ListSessions(argument: _ptyws_admin_v1_ListSessionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  ListSessions(argument: _ptyws_admin_v1_ListSessionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  ListSessions(argument: _ptyws_admin_v1_ListSessionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  ListSessions(argument: _ptyws_admin_v1_ListSessionsRequest, callback: grpc.requestCallback<_ptyws_admin_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Lists the instance's sessions, oldest first (REST: GET /api/v1/sessions).
   */
  listSessions(argument: _ptyws_admin_v1_ListSessionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  listSessions(argument: _ptyws_admin_v1_ListSessionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  listSessions(argument: _ptyws_admin_v1_ListSessionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  listSessions(argument: _ptyws_admin_v1_ListSessionsRequest, callback: grpc.requestCallback<_ptyws_admin_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Lists the instance's tokens, without secrets (REST: GET /api/v1/tokens).
   */
  ListTokens(argument: _ptyws_admin_v1_ListTokensRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  ListTokens(argument: _ptyws_admin_v1_ListTokensRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  ListTokens(argument: _ptyws_admin_v1_ListTokensRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  ListTokens(argument: _ptyws_admin_v1_ListTokensRequest, callback: grpc.requestCallback<_ptyws_admin_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Lists the instance's tokens, without secrets (REST: GET /api/v1/tokens).
   */
  listTokens(argument: _ptyws_admin_v1_ListTokensRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  listTokens(argument: _ptyws_admin_v1_ListTokensRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  listTokens(argument: _ptyws_admin_v1_ListTokensRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  listTokens(argument: _ptyws_admin_v1_ListTokensRequest, callback: grpc.requestCallback<_ptyws_admin_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Revokes a token and closes its live connections (REST: DELETE /api/v1/tokens/{id}).
   */
  RevokeToken(argument: _ptyws_admin_v1_RevokeTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Token__Output>): grpc.ClientUnaryCall;
  RevokeToken(argument: _ptyws_admin_v1_RevokeTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_Token__Output>): grpc.ClientUnaryCall;
  RevokeToken(argument: _ptyws_admin_v1_RevokeTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Token__Output>): grpc.ClientUnaryCall;
  RevokeToken(argument: _ptyws_admin_v1_RevokeTokenRequest, callback: grpc.requestCallback<_ptyws_admin_v1_Token__Output>): grpc.ClientUnaryCall;
  /**
   * Revokes a token and closes its live connections (REST: DELETE /api/v1/tokens/{id}).
   */
  revokeToken(argument: _ptyws_admin_v1_RevokeTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Token__Output>): grpc.ClientUnaryCall;
  revokeToken(argument: _ptyws_admin_v1_RevokeTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_ptyws_admin_v1_Token__Output>): grpc.ClientUnaryCall;
  revokeToken(argument: _ptyws_admin_v1_RevokeTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_ptyws_admin_v1_Token__Output>): grpc.ClientUnaryCall;
  revokeToken(argument: _ptyws_admin_v1_RevokeTokenRequest, callback: grpc.requestCallback<_ptyws_admin_v1_Token__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Sessions (terminals) and access tokens of the instance this edge serves.
 */
export interface AdminServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Starts a session on an agent of the instance (REST: POST /api/v1/sessions).
   */
  CreateSession: grpc.handleUnaryCall<_ptyws_admin_v1_CreateSessionRequest__Output, _ptyws_admin_v1_Session>;
  
  /**
   * Mints a token; the secret is returned once, only its hash is stored (REST: POST /api/v1/tokens).
   */
  CreateToken: grpc.handleUnaryCall<_ptyws_admin_v1_CreateTokenRequest__Output, _ptyws_admin_v1_CreateTokenResponse>;
  
  /**
   * One session; NOT_FOUND when it does not exist on this instance (REST: GET /api/v1/sessions/{id}).
   */
  GetSession: grpc.handleUnaryCall<_ptyws_admin_v1_GetSessionRequest__Output, _ptyws_admin_v1_Session>;
  
  /**
   * Ends a session's process and returns its record (REST: DELETE /api/v1/sessions/{id}).
   */
  KillSession: grpc.handleUnaryCall<_ptyws_admin_v1_KillSessionRequest__Output, _ptyws_admin_v1_Session>;
  
  /**
   * Lists the instance's sessions, oldest first (REST: GET /api/v1/sessions).
   */
  ListSessions: grpc.handleUnaryCall<_ptyws_admin_v1_ListSessionsRequest__Output, _ptyws_admin_v1_ListSessionsResponse>;
  
  /**
   * Lists the instance's tokens, without secrets (REST: GET /api/v1/tokens).
   */
  ListTokens: grpc.handleUnaryCall<_ptyws_admin_v1_ListTokensRequest__Output, _ptyws_admin_v1_ListTokensResponse>;
  
  /**
   * Revokes a token and closes its live connections (REST: DELETE /api/v1/tokens/{id}).
   */
  RevokeToken: grpc.handleUnaryCall<_ptyws_admin_v1_RevokeTokenRequest__Output, _ptyws_admin_v1_Token>;
  
}

export interface AdminServiceDefinition extends grpc.ServiceDefinition {
  CreateSession: MethodDefinition<_ptyws_admin_v1_CreateSessionRequest, _ptyws_admin_v1_Session, _ptyws_admin_v1_CreateSessionRequest__Output, _ptyws_admin_v1_Session__Output>
  CreateToken: MethodDefinition<_ptyws_admin_v1_CreateTokenRequest, _ptyws_admin_v1_CreateTokenResponse, _ptyws_admin_v1_CreateTokenRequest__Output, _ptyws_admin_v1_CreateTokenResponse__Output>
  GetSession: MethodDefinition<_ptyws_admin_v1_GetSessionRequest, _ptyws_admin_v1_Session, _ptyws_admin_v1_GetSessionRequest__Output, _ptyws_admin_v1_Session__Output>
  KillSession: MethodDefinition<_ptyws_admin_v1_KillSessionRequest, _ptyws_admin_v1_Session, _ptyws_admin_v1_KillSessionRequest__Output, _ptyws_admin_v1_Session__Output>
  ListSessions: MethodDefinition<_ptyws_admin_v1_ListSessionsRequest, _ptyws_admin_v1_ListSessionsResponse, _ptyws_admin_v1_ListSessionsRequest__Output, _ptyws_admin_v1_ListSessionsResponse__Output>
  ListTokens: MethodDefinition<_ptyws_admin_v1_ListTokensRequest, _ptyws_admin_v1_ListTokensResponse, _ptyws_admin_v1_ListTokensRequest__Output, _ptyws_admin_v1_ListTokensResponse__Output>
  RevokeToken: MethodDefinition<_ptyws_admin_v1_RevokeTokenRequest, _ptyws_admin_v1_Token, _ptyws_admin_v1_RevokeTokenRequest__Output, _ptyws_admin_v1_Token__Output>
}
