import { loadConfig } from '../src';

describe('PTYWS_GRPC_PORT', () => {
  it('defaults to 8082, and to off while PTYWS_PORT=0 picks a free port (parallel test servers)', () => {
    expect(loadConfig({}).grpcPort).toBe(8082);
    expect(loadConfig({ PTYWS_PORT: '8080' }).grpcPort).toBe(8082);
    expect(loadConfig({ PTYWS_PORT: '0' }).grpcPort).toBe(0);
    expect(loadConfig({ PTYWS_PORT: '0', PTYWS_GRPC_PORT: '9000' }).grpcPort).toBe(9000);
    expect(loadConfig({ PTYWS_GRPC_PORT: '0' }).grpcPort).toBe(0);
  });

  it('is a port number; PTYWS_GRPC_HOST is a host, unset by default (PTYWS_HOST is used)', () => {
    expect(() => loadConfig({ PTYWS_GRPC_PORT: '70000' })).toThrow(/PTYWS_GRPC_PORT=70000/);
    expect(loadConfig({}).grpcHost).toBeUndefined();
    expect(loadConfig({ PTYWS_GRPC_HOST: '0.0.0.0' }).grpcHost).toBe('0.0.0.0');
  });
});
