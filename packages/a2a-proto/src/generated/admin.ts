import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { CustomHttpPattern as _google_api_CustomHttpPattern, CustomHttpPattern__Output as _google_api_CustomHttpPattern__Output } from './google/api/CustomHttpPattern';
import type { Http as _google_api_Http, Http__Output as _google_api_Http__Output } from './google/api/Http';
import type { HttpRule as _google_api_HttpRule, HttpRule__Output as _google_api_HttpRule__Output } from './google/api/HttpRule';
import type { DescriptorProto as _google_protobuf_DescriptorProto, DescriptorProto__Output as _google_protobuf_DescriptorProto__Output } from './google/protobuf/DescriptorProto';
import type { EnumDescriptorProto as _google_protobuf_EnumDescriptorProto, EnumDescriptorProto__Output as _google_protobuf_EnumDescriptorProto__Output } from './google/protobuf/EnumDescriptorProto';
import type { EnumOptions as _google_protobuf_EnumOptions, EnumOptions__Output as _google_protobuf_EnumOptions__Output } from './google/protobuf/EnumOptions';
import type { EnumValueDescriptorProto as _google_protobuf_EnumValueDescriptorProto, EnumValueDescriptorProto__Output as _google_protobuf_EnumValueDescriptorProto__Output } from './google/protobuf/EnumValueDescriptorProto';
import type { EnumValueOptions as _google_protobuf_EnumValueOptions, EnumValueOptions__Output as _google_protobuf_EnumValueOptions__Output } from './google/protobuf/EnumValueOptions';
import type { ExtensionRangeOptions as _google_protobuf_ExtensionRangeOptions, ExtensionRangeOptions__Output as _google_protobuf_ExtensionRangeOptions__Output } from './google/protobuf/ExtensionRangeOptions';
import type { FeatureSet as _google_protobuf_FeatureSet, FeatureSet__Output as _google_protobuf_FeatureSet__Output } from './google/protobuf/FeatureSet';
import type { FeatureSetDefaults as _google_protobuf_FeatureSetDefaults, FeatureSetDefaults__Output as _google_protobuf_FeatureSetDefaults__Output } from './google/protobuf/FeatureSetDefaults';
import type { FieldDescriptorProto as _google_protobuf_FieldDescriptorProto, FieldDescriptorProto__Output as _google_protobuf_FieldDescriptorProto__Output } from './google/protobuf/FieldDescriptorProto';
import type { FieldOptions as _google_protobuf_FieldOptions, FieldOptions__Output as _google_protobuf_FieldOptions__Output } from './google/protobuf/FieldOptions';
import type { FileDescriptorProto as _google_protobuf_FileDescriptorProto, FileDescriptorProto__Output as _google_protobuf_FileDescriptorProto__Output } from './google/protobuf/FileDescriptorProto';
import type { FileDescriptorSet as _google_protobuf_FileDescriptorSet, FileDescriptorSet__Output as _google_protobuf_FileDescriptorSet__Output } from './google/protobuf/FileDescriptorSet';
import type { FileOptions as _google_protobuf_FileOptions, FileOptions__Output as _google_protobuf_FileOptions__Output } from './google/protobuf/FileOptions';
import type { GeneratedCodeInfo as _google_protobuf_GeneratedCodeInfo, GeneratedCodeInfo__Output as _google_protobuf_GeneratedCodeInfo__Output } from './google/protobuf/GeneratedCodeInfo';
import type { MessageOptions as _google_protobuf_MessageOptions, MessageOptions__Output as _google_protobuf_MessageOptions__Output } from './google/protobuf/MessageOptions';
import type { MethodDescriptorProto as _google_protobuf_MethodDescriptorProto, MethodDescriptorProto__Output as _google_protobuf_MethodDescriptorProto__Output } from './google/protobuf/MethodDescriptorProto';
import type { MethodOptions as _google_protobuf_MethodOptions, MethodOptions__Output as _google_protobuf_MethodOptions__Output } from './google/protobuf/MethodOptions';
import type { OneofDescriptorProto as _google_protobuf_OneofDescriptorProto, OneofDescriptorProto__Output as _google_protobuf_OneofDescriptorProto__Output } from './google/protobuf/OneofDescriptorProto';
import type { OneofOptions as _google_protobuf_OneofOptions, OneofOptions__Output as _google_protobuf_OneofOptions__Output } from './google/protobuf/OneofOptions';
import type { ServiceDescriptorProto as _google_protobuf_ServiceDescriptorProto, ServiceDescriptorProto__Output as _google_protobuf_ServiceDescriptorProto__Output } from './google/protobuf/ServiceDescriptorProto';
import type { ServiceOptions as _google_protobuf_ServiceOptions, ServiceOptions__Output as _google_protobuf_ServiceOptions__Output } from './google/protobuf/ServiceOptions';
import type { SourceCodeInfo as _google_protobuf_SourceCodeInfo, SourceCodeInfo__Output as _google_protobuf_SourceCodeInfo__Output } from './google/protobuf/SourceCodeInfo';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp';
import type { UninterpretedOption as _google_protobuf_UninterpretedOption, UninterpretedOption__Output as _google_protobuf_UninterpretedOption__Output } from './google/protobuf/UninterpretedOption';
import type { AdminServiceClient as _ptyws_admin_v1_AdminServiceClient, AdminServiceDefinition as _ptyws_admin_v1_AdminServiceDefinition } from './ptyws/admin/v1/AdminService';
import type { CreateSessionRequest as _ptyws_admin_v1_CreateSessionRequest, CreateSessionRequest__Output as _ptyws_admin_v1_CreateSessionRequest__Output } from './ptyws/admin/v1/CreateSessionRequest';
import type { CreateTokenRequest as _ptyws_admin_v1_CreateTokenRequest, CreateTokenRequest__Output as _ptyws_admin_v1_CreateTokenRequest__Output } from './ptyws/admin/v1/CreateTokenRequest';
import type { CreateTokenResponse as _ptyws_admin_v1_CreateTokenResponse, CreateTokenResponse__Output as _ptyws_admin_v1_CreateTokenResponse__Output } from './ptyws/admin/v1/CreateTokenResponse';
import type { GetSessionRequest as _ptyws_admin_v1_GetSessionRequest, GetSessionRequest__Output as _ptyws_admin_v1_GetSessionRequest__Output } from './ptyws/admin/v1/GetSessionRequest';
import type { KillSessionRequest as _ptyws_admin_v1_KillSessionRequest, KillSessionRequest__Output as _ptyws_admin_v1_KillSessionRequest__Output } from './ptyws/admin/v1/KillSessionRequest';
import type { ListSessionsRequest as _ptyws_admin_v1_ListSessionsRequest, ListSessionsRequest__Output as _ptyws_admin_v1_ListSessionsRequest__Output } from './ptyws/admin/v1/ListSessionsRequest';
import type { ListSessionsResponse as _ptyws_admin_v1_ListSessionsResponse, ListSessionsResponse__Output as _ptyws_admin_v1_ListSessionsResponse__Output } from './ptyws/admin/v1/ListSessionsResponse';
import type { ListTokensRequest as _ptyws_admin_v1_ListTokensRequest, ListTokensRequest__Output as _ptyws_admin_v1_ListTokensRequest__Output } from './ptyws/admin/v1/ListTokensRequest';
import type { ListTokensResponse as _ptyws_admin_v1_ListTokensResponse, ListTokensResponse__Output as _ptyws_admin_v1_ListTokensResponse__Output } from './ptyws/admin/v1/ListTokensResponse';
import type { ReplayWindow as _ptyws_admin_v1_ReplayWindow, ReplayWindow__Output as _ptyws_admin_v1_ReplayWindow__Output } from './ptyws/admin/v1/ReplayWindow';
import type { RevokeTokenRequest as _ptyws_admin_v1_RevokeTokenRequest, RevokeTokenRequest__Output as _ptyws_admin_v1_RevokeTokenRequest__Output } from './ptyws/admin/v1/RevokeTokenRequest';
import type { Session as _ptyws_admin_v1_Session, Session__Output as _ptyws_admin_v1_Session__Output } from './ptyws/admin/v1/Session';
import type { Token as _ptyws_admin_v1_Token, Token__Output as _ptyws_admin_v1_Token__Output } from './ptyws/admin/v1/Token';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    api: {
      CustomHttpPattern: MessageTypeDefinition<_google_api_CustomHttpPattern, _google_api_CustomHttpPattern__Output>
      FieldBehavior: EnumTypeDefinition
      Http: MessageTypeDefinition<_google_api_Http, _google_api_Http__Output>
      HttpRule: MessageTypeDefinition<_google_api_HttpRule, _google_api_HttpRule__Output>
    }
    protobuf: {
      DescriptorProto: MessageTypeDefinition<_google_protobuf_DescriptorProto, _google_protobuf_DescriptorProto__Output>
      Edition: EnumTypeDefinition
      EnumDescriptorProto: MessageTypeDefinition<_google_protobuf_EnumDescriptorProto, _google_protobuf_EnumDescriptorProto__Output>
      EnumOptions: MessageTypeDefinition<_google_protobuf_EnumOptions, _google_protobuf_EnumOptions__Output>
      EnumValueDescriptorProto: MessageTypeDefinition<_google_protobuf_EnumValueDescriptorProto, _google_protobuf_EnumValueDescriptorProto__Output>
      EnumValueOptions: MessageTypeDefinition<_google_protobuf_EnumValueOptions, _google_protobuf_EnumValueOptions__Output>
      ExtensionRangeOptions: MessageTypeDefinition<_google_protobuf_ExtensionRangeOptions, _google_protobuf_ExtensionRangeOptions__Output>
      FeatureSet: MessageTypeDefinition<_google_protobuf_FeatureSet, _google_protobuf_FeatureSet__Output>
      FeatureSetDefaults: MessageTypeDefinition<_google_protobuf_FeatureSetDefaults, _google_protobuf_FeatureSetDefaults__Output>
      FieldDescriptorProto: MessageTypeDefinition<_google_protobuf_FieldDescriptorProto, _google_protobuf_FieldDescriptorProto__Output>
      FieldOptions: MessageTypeDefinition<_google_protobuf_FieldOptions, _google_protobuf_FieldOptions__Output>
      FileDescriptorProto: MessageTypeDefinition<_google_protobuf_FileDescriptorProto, _google_protobuf_FileDescriptorProto__Output>
      FileDescriptorSet: MessageTypeDefinition<_google_protobuf_FileDescriptorSet, _google_protobuf_FileDescriptorSet__Output>
      FileOptions: MessageTypeDefinition<_google_protobuf_FileOptions, _google_protobuf_FileOptions__Output>
      GeneratedCodeInfo: MessageTypeDefinition<_google_protobuf_GeneratedCodeInfo, _google_protobuf_GeneratedCodeInfo__Output>
      MessageOptions: MessageTypeDefinition<_google_protobuf_MessageOptions, _google_protobuf_MessageOptions__Output>
      MethodDescriptorProto: MessageTypeDefinition<_google_protobuf_MethodDescriptorProto, _google_protobuf_MethodDescriptorProto__Output>
      MethodOptions: MessageTypeDefinition<_google_protobuf_MethodOptions, _google_protobuf_MethodOptions__Output>
      OneofDescriptorProto: MessageTypeDefinition<_google_protobuf_OneofDescriptorProto, _google_protobuf_OneofDescriptorProto__Output>
      OneofOptions: MessageTypeDefinition<_google_protobuf_OneofOptions, _google_protobuf_OneofOptions__Output>
      ServiceDescriptorProto: MessageTypeDefinition<_google_protobuf_ServiceDescriptorProto, _google_protobuf_ServiceDescriptorProto__Output>
      ServiceOptions: MessageTypeDefinition<_google_protobuf_ServiceOptions, _google_protobuf_ServiceOptions__Output>
      SourceCodeInfo: MessageTypeDefinition<_google_protobuf_SourceCodeInfo, _google_protobuf_SourceCodeInfo__Output>
      SymbolVisibility: EnumTypeDefinition
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
      UninterpretedOption: MessageTypeDefinition<_google_protobuf_UninterpretedOption, _google_protobuf_UninterpretedOption__Output>
    }
  }
  ptyws: {
    admin: {
      v1: {
        /**
         * Sessions (terminals) and access tokens of the instance this edge serves.
         */
        AdminService: SubtypeConstructor<typeof grpc.Client, _ptyws_admin_v1_AdminServiceClient> & { service: _ptyws_admin_v1_AdminServiceDefinition }
        CreateSessionRequest: MessageTypeDefinition<_ptyws_admin_v1_CreateSessionRequest, _ptyws_admin_v1_CreateSessionRequest__Output>
        CreateTokenRequest: MessageTypeDefinition<_ptyws_admin_v1_CreateTokenRequest, _ptyws_admin_v1_CreateTokenRequest__Output>
        CreateTokenResponse: MessageTypeDefinition<_ptyws_admin_v1_CreateTokenResponse, _ptyws_admin_v1_CreateTokenResponse__Output>
        GetSessionRequest: MessageTypeDefinition<_ptyws_admin_v1_GetSessionRequest, _ptyws_admin_v1_GetSessionRequest__Output>
        KillSessionRequest: MessageTypeDefinition<_ptyws_admin_v1_KillSessionRequest, _ptyws_admin_v1_KillSessionRequest__Output>
        ListSessionsRequest: MessageTypeDefinition<_ptyws_admin_v1_ListSessionsRequest, _ptyws_admin_v1_ListSessionsRequest__Output>
        ListSessionsResponse: MessageTypeDefinition<_ptyws_admin_v1_ListSessionsResponse, _ptyws_admin_v1_ListSessionsResponse__Output>
        ListTokensRequest: MessageTypeDefinition<_ptyws_admin_v1_ListTokensRequest, _ptyws_admin_v1_ListTokensRequest__Output>
        ListTokensResponse: MessageTypeDefinition<_ptyws_admin_v1_ListTokensResponse, _ptyws_admin_v1_ListTokensResponse__Output>
        ReplayWindow: MessageTypeDefinition<_ptyws_admin_v1_ReplayWindow, _ptyws_admin_v1_ReplayWindow__Output>
        RevokeTokenRequest: MessageTypeDefinition<_ptyws_admin_v1_RevokeTokenRequest, _ptyws_admin_v1_RevokeTokenRequest__Output>
        Session: MessageTypeDefinition<_ptyws_admin_v1_Session, _ptyws_admin_v1_Session__Output>
        Token: MessageTypeDefinition<_ptyws_admin_v1_Token, _ptyws_admin_v1_Token__Output>
      }
    }
  }
}

