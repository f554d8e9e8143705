/** Cluster implementations of the ports on NATS JetStream: the frame log and membership. */
export { connectNats, natsServers, redactNatsUrl, type NatsConnectOptions } from './connect';
export { ensureStream, ensureBucket, type OwnedStreamConfig } from './setup';
export { JetStreamFrameLog } from './frame-log';
export { defaultFrameStreamName, type JetStreamFrameLogOptions } from './frame-log-options';
export { KvMembershipStore, type KvMembershipStoreOptions } from './membership-store';
export { FrameDecodeError } from './codec';
export { sessionToken } from './subjects';
export { isNatsOutage } from './outage';
