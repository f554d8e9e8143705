// Original file: proto/ptyws/admin/v1/admin.proto


export interface ListTokensRequest {
}

export interface ListTokensRequest__Output {
}
