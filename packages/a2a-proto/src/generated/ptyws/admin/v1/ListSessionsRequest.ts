// Original file: proto/ptyws/admin/v1/admin.proto


export interface ListSessionsRequest {
}

export interface ListSessionsRequest__Output {
}
