/** gRPC test glue: a server with gRPC on, clients generated from proto/, promise helpers. */
import * as grpc from '@grpc/grpc-js';
import { grpcPackage, type a2a, type admin } from '@pty-ws/a2a-proto';
import type { Config } from '@pty-ws/config';
import { TestContext } from '@pty-ws/testkit';

/** Starts a server (embedded or cluster, per PTYWS_TEST_MODE) with its gRPC server on. */
export function useGrpcServer(overrides: Partial<Config> = {}): () => TestContext {
  let ctx: TestContext | undefined;
  beforeAll(async () => {
    ctx = await TestContext.startWithGrpc(overrides);
  });
  afterAll(async () => {
    await ctx?.dispose();
  });
  return () => {
    if (!ctx) throw new Error('server not started');
    return ctx;
  };
}

export interface Clients {
  a2a: a2a.A2AServiceClient;
  admin: admin.AdminServiceClient;
  close(): void;
}

/** Clients of both services on one channel to `address` (each edge's, in cluster mode). */
export function clients(address: string): Clients {
  const pkg = grpcPackage();
  const creds = grpc.credentials.createInsecure();
  const a2aClient = new pkg.lf.a2a.v1.A2AService(address, creds);
  const adminClient = new pkg.ptyws.admin.v1.AdminService(address, creds, {
    channelOverride: a2aClient.getChannel(),
  });
  return {
    a2a: a2aClient,
    admin: adminClient,
    close: () => {
      adminClient.close();
      a2aClient.close();
    },
  };
}

/** Call metadata: `authorization: Bearer <token>` (none for null) plus extra entries. */
export function meta(token: string | null, extra: Record<string, string> = {}): grpc.Metadata {
  const m = new grpc.Metadata();
  if (token !== null) m.set('authorization', `Bearer ${token}`);
  for (const [k, v] of Object.entries(extra)) m.set(k, v);
  return m;
}

/**
 * A generated unary method's request and response types, read off its last overload
 * `(argument, callback)` (the form TypeScript infers from).
 */
type RequestOf<M> = M extends (arg: infer A, cb: grpc.requestCallback<infer _R>) => unknown ? A : never;
type ResponseOf<M> = M extends (arg: infer _A, cb: grpc.requestCallback<infer R>) => unknown ? R : never;
type FullUnary = (
  req: unknown,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (err: grpc.ServiceError | null, res?: unknown) => void,
) => unknown;

/** A unary call as a promise (rejects with the ServiceError). */
export function call<M extends (...args: never[]) => unknown>(
  client: grpc.Client,
  method: M,
  req: RequestOf<M>,
  metadata: grpc.Metadata,
): Promise<ResponseOf<M>> {
  return new Promise((resolve, reject) => {
    (method as unknown as FullUnary).call(client, req, metadata, { deadline: Date.now() + 20_000 }, (err, res) =>
      err ? reject(err) : resolve(res as ResponseOf<M>),
    );
  });
}

/** Every message of a server stream until it ends; rejects with the ServiceError of a failed one. */
export function collect<T>(stream: grpc.ClientReadableStream<T>): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const items: T[] = [];
    stream.on('data', (m: T) => items.push(m));
    stream.on('error', reject);
    stream.on('end', () => resolve(items));
  });
}

/** The status a promise failed with (the test fails when it succeeds). */
export async function statusOf(p: Promise<unknown>): Promise<{ code: grpc.status; details: string; a2a?: unknown }> {
  try {
    await p;
  } catch (err) {
    const e = err as grpc.ServiceError;
    const raw = e.metadata?.get('a2a-error-bin')[0];
    return {
      code: e.code,
      details: e.details,
      ...(raw !== undefined ? { a2a: JSON.parse(raw.toString('utf8')) as unknown } : {}),
    };
  }
  throw new Error('expected the call to fail');
}

export { grpc };
