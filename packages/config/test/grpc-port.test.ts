import { loadConfig } from '../src';

describe('PTYWS_GRPC_PORT', () => {
  it('defaults to PTYWS_PORT + 2 (8082 for the default 8080), and to off while PTYWS_PORT=0 picks a free port', () => {
    expect(loadConfig({}).grpcPort).toBe(8082);
    expect(loadConfig({ PTYWS_PORT: '8080' }).grpcPort).toBe(8082);
    expect(loadConfig({ PTYWS_PORT: '0' }).grpcPort).toBe(0);
    expect(loadConfig({ PTYWS_PORT: '0', PTYWS_GRPC_PORT: '9000' }).grpcPort).toBe(9000);
    expect(loadConfig({ PTYWS_GRPC_PORT: '0' }).grpcPort).toBe(0);
    expect(loadConfig({ PTYWS_PORT: '9000', PTYWS_GRPC_PORT: '7000' }).grpcPort).toBe(7000);
    expect(loadConfig({ PTYWS_PORT: '65535' }).grpcPort).toBe(65533);
  });

  it('never puts two edges on adjacent ports (the README cluster quick start) on one port', () => {
    const a = loadConfig({ PTYWS_PORT: '8080' });
    const b = loadConfig({ PTYWS_PORT: '8081' });
    const taken = [a.port, a.grpcPort, b.port, b.grpcPort];
    expect(new Set(taken).size).toBe(taken.length);
  });

  it('is a port number; PTYWS_GRPC_HOST is a host, unset by default (PTYWS_HOST is used)', () => {
    expect(() => loadConfig({ PTYWS_GRPC_PORT: '70000' })).toThrow(/PTYWS_GRPC_PORT=70000/);
    expect(loadConfig({}).grpcHost).toBeUndefined();
    expect(loadConfig({ PTYWS_GRPC_HOST: '0.0.0.0' }).grpcHost).toBe('0.0.0.0');
  });
});
