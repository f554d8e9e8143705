/**
 * OpenTelemetry in the deploy artifacts, as docs/tracing.md documents it: edges and agents get
 * the OTEL_* variables in docker-compose.yml and in every Kubernetes target, tracing is off with
 * the shipped values, and the documented switch (OTEL_TRACES_EXPORTER=otlp plus an endpoint)
 * turns it on — judged by the services' own `tracingRequested`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as YAML from 'yaml';
import { tracingRequested } from '@pty-ws/telemetry';
import { containerEnv, workloads } from './lib/k8s-helpers';
import { renderKustomization, type Obj } from './lib/kustomize';

const ROOT = path.resolve(__dirname, '../..');
const OTEL = ['OTEL_TRACES_EXPORTER', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL'];

describe('docker-compose.yml', () => {
  const compose: Obj = YAML.parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true });
  const ptyws = Object.entries(compose.services as Record<string, Obj>).filter(([, s]) =>
    /services\/(edge|pty-agent)\/Dockerfile/.test(String(s.build?.dockerfile ?? '')),
  );
  /** What Compose substitutes for `${VAR:-default}` given `shell`. */
  const envWith = (svc: Obj, shell: Record<string, string>): Record<string, string> =>
    Object.fromEntries(
      Object.entries(svc.environment as Record<string, unknown>).map(([k, v]) => [
        k,
        String(v ?? '').replace(/\$\{(\w+)(?::?-([^}]*))?\}/g, (_m, name: string, def?: string) =>
          shell[name] !== undefined && shell[name] !== '' ? shell[name] : (def ?? ''),
        ),
      ]),
    );

  it('edges and the agent carry the OTEL_* variables; tracing is off unless the shell turns it on', () => {
    expect(ptyws.map(([n]) => n).sort()).toEqual(expect.arrayContaining(['agent', 'edge-1', 'edge-2']));
    for (const [name, svc] of ptyws) {
      expect([name, OTEL.filter((k) => !(k in svc.environment))]).toEqual([name, []]);
      expect([name, tracingRequested(envWith(svc, {}))]).toEqual([name, false]);
      // An endpoint alone does not switch it on while the exporter says none …
      expect(tracingRequested(envWith(svc, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }))).toBe(false);
      // … the documented pair does.
      const on = envWith(svc, { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' });
      expect([name, tracingRequested(on), on['OTEL_EXPORTER_OTLP_PROTOCOL']]).toEqual([name, true, 'http/protobuf']);
    }
  });
});

describe.each(['base', 'overlays/dev', 'overlays/production'])('Kubernetes %s', (target) => {
  const objects = renderKustomization(path.join(ROOT, 'deploy/kubernetes', target)).objects;

  it('edge and agent containers see OTEL_TRACES_EXPORTER, and tracing is off', () => {
    const ours = workloads(objects).filter((w) =>
      ['edge', 'agent'].includes(w.labels['app.kubernetes.io/component'] ?? ''),
    );
    expect(ours.map((w) => w.labels['app.kubernetes.io/component']).sort()).toEqual(['agent', 'edge']);
    for (const w of ours) {
      const env = containerEnv(objects, w.namespace, w.spec.containers[0]);
      const plain = Object.fromEntries([...env].map(([k, v]) => [k, v.value ?? '']));
      expect(plain['OTEL_TRACES_EXPORTER']).toBe('none');
      expect(tracingRequested(plain)).toBe(false);
    }
  });

  it('the commented-out collector settings are the documented ones and would turn tracing on', () => {
    const cm = fs.readFileSync(path.join(ROOT, 'deploy/kubernetes/base/config.yaml'), 'utf8');
    const commented = Object.fromEntries(
      [...cm.matchAll(/^\s*#\s*(OTEL_[A-Z_]+):\s*'([^']*)'/gm)].map((m) => [m[1]!, m[2]!]),
    );
    expect(Object.keys(commented).sort()).toEqual(['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL']);
    expect(['http/protobuf', 'http/json', 'grpc']).toContain(commented['OTEL_EXPORTER_OTLP_PROTOCOL']);
    expect(tracingRequested({ ...commented, OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
  });
});
