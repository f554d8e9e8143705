/**
 * `@pty-ws/edge/internal`: pieces of the edge that this repository's tests drive on their own
 * (the dashboard's static handler on a bare uWS app). Not part of the edge's public entry.
 */
export { DASHBOARD_CSP, mountStatic } from './http/static';
export { uWS, type us_listen_socket } from './uws';
// Security tests drive these units directly (throttle arithmetic, gRPC instance binding, mTLS peers).
export { AUTH_FAILURE_BURST, AUTH_FAILURE_RATE_PER_S, AuthFailureThrottle } from './limits/auth-failure-throttle';
export { instanceOf } from './grpc/grpc-context';
export { TransportPolicy, type PeerDirectory } from './transport';
