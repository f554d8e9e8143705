/**
 * deploy/kubernetes: the base and every overlay are rendered (tests/deploy/lib/kustomize.ts, and
 * compared with `kubectl kustomize` when kubectl is installed), every object is validated against
 * the Kubernetes OpenAPI-derived JSON schemas (kubernetes-models, offline; CRDs with
 * @kubernetes-models/prometheus-operator) with unknown fields rejected, and the cross-references
 * that `kubectl apply` would not catch are checked: selectors, ports, probes, env refs, HPA/PDB
 * targets, NetworkPolicy flows, the NATS cluster config and the PTY workload's security context.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as YAML from 'yaml';
import { DEFAULTS, defaultEdgeGrpcPort, KNOWN_ENV, METRICS, SECRET_ENV } from './lib/contract';
import {
  connectionAllowed,
  containerEnv,
  find,
  mapSelector,
  podPeer,
  secretData,
  secretFileEnv,
  selectorMatches,
  workloads,
  type Peer,
  type Workload,
} from './lib/k8s-helpers';
import { validateObject } from './lib/k8s-schema';
import { id, isNamespaced, parseImage, podContainers, renderKustomization, type Obj } from './lib/kustomize';

const ROOT = path.resolve(__dirname, '../..');
const K8S = path.join(ROOT, 'deploy/kubernetes');
const OVERLAYS = fs
  .readdirSync(path.join(K8S, 'overlays'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => `overlays/${d.name}`);
const TARGETS = ['base', ...OVERLAYS];

const rendered = new Map<string, { objects: Obj[]; patchLog: string[] }>();
function objectsOf(target: string): Obj[] {
  if (!rendered.has(target)) rendered.set(target, renderKustomization(path.join(K8S, target)));
  return rendered.get(target)!.objects;
}

function which(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

const kinds = (objects: Obj[], kind: string) => objects.filter((o) => o.kind === kind);
const component = (w: Workload) => w.labels['app.kubernetes.io/component'] ?? w.labels['app.kubernetes.io/name'];
function workloadByComponent(objects: Obj[], c: string): Workload {
  const w = workloads(objects).find((x) => component(x) === c);
  if (!w) throw new Error(`no workload with component ${c}`);
  return w;
}
const mainContainer = (w: Workload): Obj => w.spec.containers[0];

/** Resolve a probe/Service port (name or number) against a container's declared ports. */
function resolvePort(ports: Obj[] | undefined, port: string | number): Obj | undefined {
  return (ports ?? []).find((p) => (typeof port === 'number' ? p.containerPort === port : p.name === port));
}

test('the expected overlays exist', () => {
  expect(OVERLAYS.sort()).toEqual(['overlays/dev', 'overlays/production']);
});

describe.each(TARGETS)('%s', (target) => {
  const objects = () => objectsOf(target);
  const ns = () => {
    const k = YAML.parse(fs.readFileSync(path.join(K8S, target, 'kustomization.yaml'), 'utf8'));
    return k.namespace as string;
  };

  test('renders; every patch resolves to exactly one existing resource', () => {
    expect(objects().length).toBeGreaterThan(10);
    const log = rendered.get(target)!.patchLog;
    // The renderer throws on a patch that matches nothing; each log line names the one it hit.
    for (const line of log) expect(line).toMatch(/ -> \S+ \S+$/);
    if (target !== 'base') expect(log.length).toBeGreaterThan(0);
  });

  test('matches `kubectl kustomize` (when kubectl is installed)', () => {
    const kubectl = which('kubectl');
    if (!kubectl) {
      console.warn(`kubectl not installed: skipping the comparison of ${target} with kubectl kustomize`);
      return;
    }
    const out = execFileSync(kubectl, ['kustomize', path.join(K8S, target)], { encoding: 'utf8', timeout: 20_000 });
    const theirs = YAML.parseAllDocuments(out).map((d) => d.toJS());
    const canon = (list: Obj[]) =>
      Object.fromEntries(list.map((o) => [`${o.apiVersion} ${id(o)}`, sortDeep(o)])) as Record<string, unknown>;
    expect(canon(objects())).toEqual(canon(theirs));
  });

  test('every object validates against its Kubernetes / CRD schema, with no unknown fields', () => {
    const problems: string[] = [];
    for (const o of objects()) {
      const r = validateObject(o);
      for (const e of r.errors) problems.push(`${id(o)}: ${e}`);
      for (const u of r.unknown) problems.push(`${id(o)}: unknown field ${u}`);
    }
    expect(problems).toEqual([]);
  });

  test('the namespace exists, everything namespaced is in it, names are DNS-1123', () => {
    const namespace = ns();
    expect(find(objects(), 'Namespace', namespace)).toBeDefined();
    for (const o of objects()) {
      expect(o.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/);
      if (isNamespaced(o.kind)) expect([id(o), o.metadata.namespace]).toEqual([id(o), namespace]);
    }
  });

  test('Services select pods and target declared container ports', () => {
    for (const svc of kinds(objects(), 'Service')) {
      const selected = workloads(objects()).filter(
        (w) => w.namespace === svc.metadata.namespace && selectorMatches(mapSelector(svc.spec.selector), w.labels),
      );
      expect([svc.metadata.name, selected.length > 0]).toEqual([svc.metadata.name, true]);
      for (const p of svc.spec.ports as Obj[]) {
        for (const w of selected) {
          const containerPorts = (w.spec.containers as Obj[]).flatMap((c) => c.ports ?? []);
          const hit = resolvePort(containerPorts, p.targetPort ?? p.port);
          expect([svc.metadata.name, p.name, w.obj.metadata.name, !!hit]).toEqual([
            svc.metadata.name,
            p.name,
            w.obj.metadata.name,
            true,
          ]);
          expect(hit!.protocol ?? 'TCP').toBe(p.protocol ?? 'TCP');
        }
      }
    }
  });

  test('probes hit declared ports; workload selectors match their own pod labels', () => {
    for (const w of workloads(objects())) {
      if (w.obj.kind !== 'Pod') expect(selectorMatches(w.obj.spec.selector, w.labels)).toBe(true);
      for (const c of w.spec.containers as Obj[]) {
        for (const kind of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
          const probe = c[kind];
          if (!probe) continue;
          const port = probe.httpGet?.port ?? probe.tcpSocket?.port ?? probe.grpc?.port;
          if (port !== undefined) {
            expect([w.obj.metadata.name, c.name, kind, !!resolvePort(c.ports, port)]).toEqual([
              w.obj.metadata.name,
              c.name,
              kind,
              true,
            ]);
          } else {
            expect(probe.exec?.command?.length).toBeGreaterThan(0);
          }
        }
      }
    }
  });

  test('ConfigMap/Secret references (env, envFrom, volumes) resolve to existing keys', () => {
    for (const w of workloads(objects())) {
      for (const c of podContainers(w.obj)) containerEnv(objects(), w.namespace, c); // throws on a dangling ref
      for (const v of (w.spec.volumes ?? []) as Obj[]) {
        if (v.secret) {
          const s = find(objects(), 'Secret', v.secret.secretName, w.namespace);
          expect([v.name, !!s || !!v.secret.optional]).toEqual([v.name, true]);
          for (const item of (v.secret.items ?? []) as Obj[]) expect(Object.keys(secretData(s!))).toContain(item.key);
        }
        if (v.configMap) {
          const cm = find(objects(), 'ConfigMap', v.configMap.name, w.namespace);
          expect([v.name, !!cm || !!v.configMap.optional]).toEqual([v.name, true]);
          for (const item of (v.configMap.items ?? []) as Obj[])
            expect(Object.keys(cm!.data ?? {})).toContain(item.key);
        }
      }
      for (const c of podContainers(w.obj)) {
        const declared = new Set([
          ...((w.spec.volumes ?? []) as Obj[]).map((v) => v.name),
          ...((w.obj.spec.volumeClaimTemplates ?? []) as Obj[]).map((v) => v.metadata.name),
        ]);
        for (const m of (c.volumeMounts ?? []) as Obj[])
          expect([c.name, m.name, declared.has(m.name)]).toEqual([c.name, m.name, true]);
      }
      const sa = w.spec.serviceAccountName;
      if (sa) expect(find(objects(), 'ServiceAccount', sa, w.namespace)).toBeDefined();
      if (w.obj.kind === 'StatefulSet') {
        const headless = find(objects(), 'Service', w.obj.spec.serviceName, w.namespace);
        expect(headless).toBeDefined();
        if (w.obj.spec.replicas > 1) expect(headless!.spec.clusterIP).toBe('None');
      }
    }
  });

  test('the edge HPA and PDB target the edge Deployment and leave room for disruptions', () => {
    const edge = workloadByComponent(objects(), 'edge');
    expect(edge.obj.kind).toBe('Deployment');
    const hpas = kinds(objects(), 'HorizontalPodAutoscaler');
    expect(hpas).toHaveLength(1);
    const hpa = hpas[0]!;
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: edge.obj.metadata.name,
    });
    expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
    expect(edge.obj.spec.replicas).toBeGreaterThanOrEqual(hpa.spec.minReplicas);
    expect(edge.obj.spec.replicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
    const cpu = (hpa.spec.metrics as Obj[]).find((m) => m.type === 'Resource' && m.resource.name === 'cpu');
    expect(cpu?.resource.target.type).toBe('Utilization');
    expect(mainContainer(edge).resources?.requests?.cpu).toBeDefined(); // Utilization needs a request
    const pods = (hpa.spec.metrics as Obj[]).find((m) => m.type === 'Pods');
    expect(pods?.pods.metric.name).toBe('ptyws_connections');
    expect(METRICS[pods!.pods.metric.name]).toBe('gauge');
    expect(pods?.pods.target.type).toBe('AverageValue');

    for (const pdb of kinds(objects(), 'PodDisruptionBudget')) {
      const matched = workloads(objects()).filter((w) => selectorMatches(pdb.spec.selector, w.labels));
      expect([pdb.metadata.name, matched.length]).toEqual([pdb.metadata.name, 1]);
      const w = matched[0]!;
      const replicas = w === edge ? hpa.spec.minReplicas : w.obj.spec.replicas;
      // A budget that can never be met blocks every node drain.
      if (pdb.spec.minAvailable !== undefined) expect(pdb.spec.minAvailable).toBeLessThan(replicas);
      if (pdb.spec.maxUnavailable !== undefined) expect(pdb.spec.maxUnavailable).toBeGreaterThan(0);
    }
    expect(kinds(objects(), 'PodDisruptionBudget').some((p) => selectorMatches(p.spec.selector, edge.labels))).toBe(
      true,
    );
  });

  test('edge: probes, preStop drain and a grace period longer than the drain', () => {
    const edge = workloadByComponent(objects(), 'edge');
    const c = mainContainer(edge);
    const env = containerEnv(objects(), edge.namespace, c);
    expect(c.readinessProbe.httpGet.path).toBe('/readyz');
    expect(c.livenessProbe.httpGet.path).toBe('/healthz');
    const http = resolvePort(c.ports, 'http')!;
    expect(http.containerPort).toBe(Number(env.get('PTYWS_PORT')?.value ?? DEFAULTS.edgePort));
    // gRPC (A2A + admin services) on its own declared port, exposed by a Service.
    const grpcPort = resolvePort(c.ports, 'grpc');
    expect(grpcPort?.containerPort).toBe(
      Number(env.get('PTYWS_GRPC_PORT')?.value ?? defaultEdgeGrpcPort(env.get('PTYWS_PORT')?.value)),
    );
    const edgeServices = kinds(objects(), 'Service').filter((svc) => selectorMatches(svc.spec.selector, edge.labels));
    expect(edgeServices.some((svc) => (svc.spec.ports as Obj[]).some((p) => p.targetPort === 'grpc'))).toBe(true);
    const tls = !!env.get('PTYWS_TLS_CERT')?.value;
    for (const p of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
      if (c[p]) expect(c[p].httpGet.scheme ?? 'HTTP').toBe(tls ? 'HTTPS' : 'HTTP');
    }
    const preStop: string[] = c.lifecycle.preStop.exec.command;
    expect(preStop[0]).toBe('sleep');
    const sleep = Number(preStop[1]);
    const grace = Number(env.get('PTYWS_GRACE_PERIOD_S')?.value ?? DEFAULTS.gracePeriodS);
    expect(edge.spec.terminationGracePeriodSeconds).toBeGreaterThan(sleep + grace);
    expect(edge.obj.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
  });

  test('agent: one per node, root only to start sessions as an unprivileged user, writable /tmp and HOME', () => {
    const agent = workloadByComponent(objects(), 'agent');
    expect(agent.obj.kind).toBe('DaemonSet');
    const c = mainContainer(agent);
    const sc = c.securityContext;
    const psc = agent.spec.securityContext;
    // Root with SETUID/SETGID/CHOWN/KILL and nothing else; the sessions run as PTYWS_SESSION_USER.
    expect(sc.runAsUser ?? psc.runAsUser).toBe(0);
    expect(sc.allowPrivilegeEscalation).toBe(false);
    expect(sc.privileged ?? false).toBe(false);
    expect(sc.capabilities.drop).toEqual(['ALL']);
    expect([...sc.capabilities.add].sort()).toEqual(['CHOWN', 'KILL', 'SETGID', 'SETUID']);
    expect((sc.seccompProfile ?? psc.seccompProfile).type).toBe('RuntimeDefault');
    expect(sc.readOnlyRootFilesystem).toBe(true);
    expect(agent.spec.hostPID ?? false).toBe(false);
    expect(agent.spec.hostNetwork ?? false).toBe(false);
    // No fsGroup: the Secret files stay root's (0400), unreadable to the session user.
    expect(psc.fsGroup).toBeUndefined();
    const env = containerEnv(objects(), agent.namespace, c);
    const emptyDirs = new Set(((agent.spec.volumes ?? []) as Obj[]).filter((v) => v.emptyDir).map((v) => v.name));
    const writable = ((c.volumeMounts ?? []) as Obj[])
      .filter((m) => emptyDirs.has(m.name) && !m.readOnly)
      .map((m) => m.mountPath);
    expect(writable).toContain('/tmp');
    // The session user (the image's `node`) has its HOME; the state dir is on a volume of its own.
    expect(env.get('PTYWS_SESSION_USER')?.value).toBe('node');
    expect(writable).toContain('/home/node');
    expect(writable.some((m) => env.get('PTYWS_STATE_DIR')!.value!.startsWith(`${m}/`))).toBe(true);
    expect(c.readinessProbe.httpGet.path).toBe('/readyz');
    expect(c.livenessProbe.httpGet.path).toBe('/healthz');
    const metrics = resolvePort(c.ports, 'metrics')!;
    expect(metrics.containerPort).toBe(Number(env.get('PTYWS_AGENT_METRICS_PORT')?.value ?? DEFAULTS.agentMetricsPort));
    const grace = Number(env.get('PTYWS_GRACE_PERIOD_S')?.value ?? DEFAULTS.gracePeriodS);
    expect(agent.spec.terminationGracePeriodSeconds).toBeGreaterThan(grace);
  });

  test('every pod but the agent meets Pod Security "restricted", the agent "baseline"; no Service-link env', () => {
    const problems: string[] = [];
    for (const w of workloads(objects())) {
      // The agent: root with the capabilities "baseline" allows (checked in its own test).
      const restricted = component(w) !== 'agent';
      const name = `${w.obj.kind}/${w.obj.metadata.name}`;
      const s = w.spec;
      // Services named ptyws-* would inject PTYWS_*_SERVICE_HOST/PORT variables, which the config
      // loader rejects as unknown PTYWS_* names.
      if (s.enableServiceLinks !== false) problems.push(`${name}: enableServiceLinks must be false`);
      if (s.automountServiceAccountToken !== false)
        problems.push(`${name}: automountServiceAccountToken must be false`);
      if (s.hostNetwork || s.hostPID || s.hostIPC) problems.push(`${name}: host namespaces`);
      for (const v of (s.volumes ?? []) as Obj[]) {
        const type = Object.keys(v).find((k) => k !== 'name')!;
        if (
          ![
            'configMap',
            'csi',
            'downwardAPI',
            'emptyDir',
            'ephemeral',
            'persistentVolumeClaim',
            'projected',
            'secret',
          ].includes(type)
        )
          problems.push(`${name}: volume type ${type}`);
      }
      for (const c of podContainers(w.obj)) {
        const sc = c.securityContext ?? {};
        const psc = s.securityContext ?? {};
        if (restricted && (sc.runAsNonRoot ?? psc.runAsNonRoot) !== true)
          problems.push(`${name}/${c.name}: runAsNonRoot`);
        if (restricted && (sc.runAsUser ?? psc.runAsUser) === 0) problems.push(`${name}/${c.name}: runAsUser 0`);
        if (sc.allowPrivilegeEscalation !== false) problems.push(`${name}/${c.name}: allowPrivilegeEscalation`);
        if (sc.privileged) problems.push(`${name}/${c.name}: privileged`);
        if (!(sc.capabilities?.drop ?? []).includes('ALL')) problems.push(`${name}/${c.name}: capabilities.drop ALL`);
        const allowed = restricted ? ['NET_BIND_SERVICE'] : ['SETUID', 'SETGID', 'CHOWN', 'KILL'];
        for (const cap of sc.capabilities?.add ?? [])
          if (!allowed.includes(cap)) problems.push(`${name}/${c.name}: adds ${cap}`);
        const seccomp = (sc.seccompProfile ?? psc.seccompProfile)?.type;
        if (!['RuntimeDefault', 'Localhost'].includes(seccomp)) problems.push(`${name}/${c.name}: seccompProfile`);
        if (!c.resources?.requests?.memory || !c.resources?.limits?.memory)
          problems.push(`${name}/${c.name}: memory request/limit`);
        const { tag, digest } = parseImage(c.image);
        if (!digest && (!tag || tag === 'latest')) problems.push(`${name}/${c.name}: image ${c.image} is not pinned`);
      }
    }
    const nsObj = find(objects(), 'Namespace', ns())!;
    expect(nsObj.metadata.labels['pod-security.kubernetes.io/enforce']).toBe('baseline');
    expect(nsObj.metadata.labels['pod-security.kubernetes.io/audit']).toBe('restricted');
    expect(problems).toEqual([]);
  });

  test('edge/agent env: only contract variables, secrets from Secret files, consistent values', () => {
    const natsUsers = secretData(find(objects(), 'Secret', 'ptyws-nats-users', ns())!);
    for (const c of ['edge', 'agent']) {
      const w = workloadByComponent(objects(), c);
      const container = mainContainer(w);
      const direct = containerEnv(objects(), w.namespace, container);
      for (const name of direct.keys()) {
        if (/^(PTYWS_|OTEL_)/.test(name))
          expect([c, name, (KNOWN_ENV as readonly string[]).includes(name)]).toEqual([c, name, true]);
      }
      const files = secretFileEnv(objects(), w.namespace, w.spec, container);
      const env = new Map([...direct, ...files]);
      // Secrets are files only: never in a process's initial environment (/proc/<pid>/environ).
      for (const name of SECRET_ENV) {
        expect([c, name, direct.has(name)]).toEqual([c, name, false]);
        const e = env.get(name);
        if (e) expect([c, name, e.source]).toEqual([c, name, 'secretFile']);
        // Readable by the service only: the agent's root (0400), the edge's user and group (0440).
        if (e) expect([c, name, e.mode]).toEqual([c, name, c === 'agent' ? 0o400 : 0o440]);
      }
      // Each role connects to NATS as itself, with the password the server has for it.
      for (const server of env.get('PTYWS_NATS_URL')!.value!.split(',')) {
        const natsUrl = new URL(server.trim());
        expect([c, natsUrl.username]).toEqual([c, c]);
        expect(decodeURIComponent(natsUrl.password)).toBe(natsUsers[`${c}-password`]);
      }
      // Literal values in the manifests never look like credentials.
      for (const e of (container.env ?? []) as Obj[]) {
        if (e.value !== undefined) expect(String(e.value)).not.toMatch(/:\/\/[^/\s:]+:[^@\s]+@/);
      }
      for (const required of [
        'PTYWS_NATS_URL',
        'PTYWS_DATABASE_URL',
        'PTYWS_INSTANCE_ID',
        'PTYWS_HOST',
        'PTYWS_GRACE_PERIOD_S',
      ])
        expect([c, required, env.has(required)]).toEqual([c, required, true]);
      expect(env.get('PTYWS_HOST')?.value).toBe('0.0.0.0');
      const idVar = c === 'edge' ? 'PTYWS_EDGE_ID' : 'PTYWS_AGENT_ID';
      expect(env.get(idVar)).toEqual({ source: 'fieldRef', ref: 'metadata.name' });
      if (c === 'edge') {
        expect(env.get('PTYWS_ADMIN_TOKEN')?.source).toBe('secretFile');
        // TLS files: each path lies in a read-only mount of a Secret that has the key.
        for (const v of ['PTYWS_TLS_CERT', 'PTYWS_TLS_KEY', 'PTYWS_TLS_CA']) {
          const file = env.get(v)?.value;
          if (!file) continue;
          const mount = ((container.volumeMounts ?? []) as Obj[]).find((m) => path.posix.dirname(file) === m.mountPath);
          expect([v, !!mount]).toEqual([v, true]);
          expect(mount!.readOnly).toBe(true);
          const vol = (w.spec.volumes as Obj[]).find((x) => x.name === mount!.name)!;
          const secret = find(objects(), 'Secret', vol.secret.secretName, w.namespace)!;
          expect(Object.keys(secretData(secret))).toContain(path.posix.basename(file));
        }
      }
      // NATS URL -> every pod of the NATS StatefulSet, each through its headless Service's client
      // port, so a client reconnects to a live node itself; replicas as many as there are nodes.
      const sts = find(objects(), 'StatefulSet', 'nats', w.namespace)!;
      const servers = env
        .get('PTYWS_NATS_URL')!
        .value!.split(',')
        .map((u) => new URL(u.trim()));
      const pods = servers.map((nats) => {
        expect(nats.protocol).toBe('nats:');
        const [pod, svcName] = nats.hostname.split('.');
        expect(svcName).toBe(sts.spec.serviceName);
        const natsSvc = find(objects(), 'Service', svcName!, w.namespace);
        expect((natsSvc!.spec.ports as Obj[]).map((p) => p.port)).toContain(
          Number(nats.port || DEFAULTS.natsClientPort),
        );
        return pod;
      });
      expect(pods.sort()).toEqual([...Array(sts.spec.replicas).keys()].map((i) => `nats-${i}`));
      expect(env.get('PTYWS_JETSTREAM_REPLICAS')?.value).toBe(String(sts.spec.replicas));
      // Database URL -> a Postgres URL; in-cluster hosts must be real Services.
      const db = new URL(env.get('PTYWS_DATABASE_URL')!.value!);
      expect(db.protocol).toMatch(/^postgres(ql)?:$/);
      if (!db.hostname.includes('.')) {
        const dbSvc = find(objects(), 'Service', db.hostname, w.namespace);
        expect(dbSvc).toBeDefined();
        expect((dbSvc!.spec.ports as Obj[]).map((p) => p.port)).toContain(Number(db.port || DEFAULTS.postgresPort));
      }
    }
  });

  test('Secrets hold placeholders only', () => {
    for (const s of kinds(objects(), 'Secret')) {
      for (const [k, v] of Object.entries(secretData(s))) {
        expect(v).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
        const placeholder =
          /REPLACE_ME/.test(v) || /dev-only/.test(v) || (target === 'overlays/dev' && /^(ptyws)$/.test(v));
        expect([s.metadata.name, k, placeholder]).toEqual([s.metadata.name, k, true]);
      }
    }
  });

  test('NetworkPolicies: default deny, selectors match real pods, exactly the intended flows', () => {
    const policies = kinds(objects(), 'NetworkPolicy');
    const namespace = ns();
    const nsObj = find(objects(), 'Namespace', namespace);
    const ws = workloads(objects());
    expect(
      policies.some(
        (p) =>
          Object.keys(p.spec.podSelector ?? {}).length === 0 &&
          !p.spec.ingress &&
          !p.spec.egress &&
          ['Ingress', 'Egress'].every((t) => p.spec.policyTypes.includes(t)),
      ),
    ).toBe(true);
    // Every non-empty pod selector (target, or same-namespace peer) selects a real pod.
    for (const p of policies) {
      if (Object.keys(p.spec.podSelector).length)
        expect([p.metadata.name, ws.some((w) => selectorMatches(p.spec.podSelector, w.labels))]).toEqual([
          p.metadata.name,
          true,
        ]);
      for (const rule of [...(p.spec.ingress ?? []), ...(p.spec.egress ?? [])] as Obj[]) {
        for (const peer of [...(rule.from ?? []), ...(rule.to ?? [])] as Obj[]) {
          if (peer.podSelector && !peer.namespaceSelector)
            expect([p.metadata.name, ws.some((w) => selectorMatches(peer.podSelector, w.labels))]).toEqual([
              p.metadata.name,
              true,
            ]);
        }
        // Named ports in ingress rules exist on the selected pods.
        for (const port of (p.spec.ingress?.includes(rule) ? (rule.ports ?? []) : []) as Obj[]) {
          if (typeof port.port !== 'string') continue;
          const targets = ws.filter((w) => selectorMatches(p.spec.podSelector, w.labels));
          for (const t of targets)
            expect([p.metadata.name, port.port, t.ports.some((x) => x.name === port.port)]).toEqual([
              p.metadata.name,
              port.port,
              true,
            ]);
        }
      }
    }

    const pod = (c: string) => podPeer(workloadByComponent(objects(), c), nsObj);
    const edge = pod('edge');
    const agent = pod('agent');
    const nats = pod('nats');
    const external = (namespaceName: string, labels: Record<string, string>, ports: Peer['ports'] = []): Peer => ({
      label: `${namespaceName}/${JSON.stringify(labels)}`,
      namespace: namespaceName,
      nsLabels: { 'kubernetes.io/metadata.name': namespaceName },
      labels,
      ports,
    });
    const ingressController = external('ingress-nginx', { 'app.kubernetes.io/name': 'ingress-nginx' });
    const prometheus = external('monitoring', { 'app.kubernetes.io/name': 'prometheus' });
    const stranger = external('default', { app: 'something-else' });
    const dns = external('kube-system', { 'k8s-app': 'kube-dns' }, [
      { name: 'dns', containerPort: 53, protocol: 'UDP' },
    ]);
    // Addresses from the documentation ranges: evaluated on paper only, never contacted.
    const externalDb: Peer = { label: 'external postgres', ip: '203.0.113.10' };
    const internet: Peer = { label: 'internet', ip: '198.51.100.7' };
    const edgePort = resolvePort(workloadByComponent(objects(), 'edge').ports as Obj[], 'http')!.containerPort;
    const agentPort = resolvePort(workloadByComponent(objects(), 'agent').ports as Obj[], 'metrics')!.containerPort;
    const edgeGrpcPort = resolvePort(workloadByComponent(objects(), 'edge').ports as Obj[], 'grpc')!.containerPort;

    const flows: [Peer, Peer, number, string, boolean][] = [
      [ingressController, edge, edgePort, 'TCP', true],
      [ingressController, edge, edgeGrpcPort, 'TCP', true],
      [stranger, edge, edgeGrpcPort, 'TCP', false],
      [prometheus, edge, edgePort, 'TCP', true],
      [prometheus, agent, agentPort, 'TCP', true],
      [edge, nats, 4222, 'TCP', true],
      [agent, nats, 4222, 'TCP', true],
      [nats, nats, 6222, 'TCP', true],
      [edge, dns, 53, 'UDP', true],
      [agent, dns, 53, 'UDP', true],
      [nats, dns, 53, 'UDP', true],
      [stranger, edge, edgePort, 'TCP', false],
      [stranger, nats, 4222, 'TCP', false],
      [ingressController, agent, agentPort, 'TCP', false],
      [ingressController, nats, 4222, 'TCP', false],
      [agent, edge, edgePort, 'TCP', false],
      [edge, agent, agentPort, 'TCP', false],
      [edge, nats, 6222, 'TCP', false],
      [nats, edge, edgePort, 'TCP', false],
      [edge, internet, 443, 'TCP', false],
      [agent, internet, 443, 'TCP', false],
      [nats, externalDb, 5432, 'TCP', false],
    ];
    const pg = workloads(objects()).find((w) => component(w) === 'postgres');
    if (pg) {
      const postgres = podPeer(pg, nsObj);
      flows.push([edge, postgres, 5432, 'TCP', true], [agent, postgres, 5432, 'TCP', true]);
      flows.push(
        [nats, postgres, 5432, 'TCP', false],
        [stranger, postgres, 5432, 'TCP', false],
        [postgres, internet, 443, 'TCP', false],
      );
    } else {
      flows.push([edge, externalDb, 5432, 'TCP', true], [agent, externalDb, 5432, 'TCP', true]);
    }
    const wrong = flows
      .filter(([s, d, port, proto, want]) => connectionAllowed(policies, s, d, port, proto) !== want)
      .map(
        ([s, d, port, proto, want]) =>
          `${s.label} -> ${d.label}:${port}/${proto} should be ${want ? 'allowed' : 'denied'}`,
      );
    expect(wrong).toEqual([]);
  });

  test('ServiceMonitors select Services by named port; TLS material exists', () => {
    const monitors = kinds(objects(), 'ServiceMonitor');
    expect(monitors.map((m) => m.metadata.name).sort()).toEqual(['ptyws-agent', 'ptyws-edge']);
    for (const m of monitors) {
      const svcs = kinds(objects(), 'Service').filter((s) => selectorMatches(m.spec.selector, s.metadata.labels));
      expect([m.metadata.name, svcs.length]).toEqual([m.metadata.name, 1]);
      for (const ep of m.spec.endpoints as Obj[]) {
        expect((svcs[0]!.spec.ports as Obj[]).map((p) => p.name)).toContain(ep.port);
        expect(ep.path ?? '/metrics').toBe('/metrics');
        const ca = ep.tlsConfig?.ca?.secret;
        if (ca)
          expect(Object.keys(secretData(find(objects(), 'Secret', ca.name, m.metadata.namespace)!))).toContain(ca.key);
      }
      // The scrape job is named after the Service, as in deploy/prometheus (job="ptyws-edge").
      expect(svcs[0]!.metadata.name).toBe(m.metadata.name);
    }
    // The edge serves HTTPS when TLS is configured: its monitor must scrape with https.
    const edgeMon = monitors.find((m) => m.metadata.name === 'ptyws-edge')!;
    const edge = workloadByComponent(objects(), 'edge');
    const tls = !!containerEnv(objects(), edge.namespace, mainContainer(edge)).get('PTYWS_TLS_CERT')?.value;
    expect(edgeMon.spec.endpoints[0].scheme ?? 'http').toBe(tls ? 'https' : 'http');
  });

  test('the PrometheusRule equals deploy/prometheus/rules/ptyws.rules.yml', () => {
    const rules = YAML.parse(fs.readFileSync(path.join(ROOT, 'deploy/prometheus/rules/ptyws.rules.yml'), 'utf8'));
    const pr = kinds(objects(), 'PrometheusRule');
    expect(pr).toHaveLength(1);
    // Out of sync? run: node deploy/scripts/sync-prometheusrule.cjs
    expect(pr[0]!.spec.groups).toEqual(rules.groups);
  });

  test('Ingress (if any) routes to the edge Service by a declared port and a real TLS Secret', () => {
    for (const ing of kinds(objects(), 'Ingress')) {
      for (const rule of ing.spec.rules as Obj[]) {
        for (const p of rule.http.paths as Obj[]) {
          const svc = find(objects(), 'Service', p.backend.service.name, ing.metadata.namespace)!;
          expect(svc).toBeDefined();
          const port = p.backend.service.port;
          expect(
            (svc.spec.ports as Obj[]).some((x) => (port.name ? x.name === port.name : x.port === port.number)),
          ).toBe(true);
        }
      }
      for (const t of (ing.spec.tls ?? []) as Obj[])
        expect(find(objects(), 'Secret', t.secretName, ing.metadata.namespace)).toBeDefined();
    }
  });

  test('NATS: 3-node JetStream cluster whose config matches the StatefulSet', () => {
    const sts = find(objects(), 'StatefulSet', 'nats')!;
    expect(sts.spec.replicas).toBe(3);
    expect(sts.spec.podManagementPolicy).toBe('Parallel');
    const c = (sts.spec.template.spec.containers as Obj[])[0]!;
    const cfgVol = (sts.spec.template.spec.volumes as Obj[]).find((v) => v.configMap)!;
    const cfgMount = (c.volumeMounts as Obj[]).find((m) => m.name === cfgVol.name)!;
    const cm = find(objects(), 'ConfigMap', cfgVol.configMap.name, sts.metadata.namespace)!;
    const confFile = c.args[c.args.indexOf('--config') + 1];
    expect(path.posix.dirname(confFile)).toBe(cfgMount.mountPath);
    const conf: string = cm.data[path.posix.basename(confFile)];
    expect(conf).toBeDefined();
    const port = (name: string) => resolvePort(c.ports, name)!.containerPort;
    expect(conf).toMatch(new RegExp(`^port: ${port('client')}$`, 'm'));
    expect(conf).toMatch(new RegExp(`^http_port: ${port('monitor')}$`, 'm'));
    expect(conf).toMatch(new RegExp(`^\\s+port: ${port('cluster')}$`, 'm'));
    expect(conf).toMatch(/^jetstream \{/m);
    // One user per role, its password from the ptyws-nats-users Secret.
    const users = [...conf.matchAll(/\{ user: (\w+), password: \$(\w+) \}/g)];
    expect(users.map((u) => u[1]).sort()).toEqual(['agent', 'edge']);
    for (const u of users)
      expect(containerEnv(objects(), sts.metadata.namespace, c).get(u[2]!)).toMatchObject({
        source: 'secret',
        ref: `ptyws-nats-users/${u[1]}-password`,
      });
    // server_name from the pod name (unique per JetStream node).
    const serverVar = /^server_name: \$(\w+)$/m.exec(conf)![1]!;
    expect(containerEnv(objects(), sts.metadata.namespace, c).get(serverVar)).toEqual({
      source: 'fieldRef',
      ref: 'metadata.name',
    });
    // One route per replica, through the headless Service.
    const routes = [...conf.matchAll(/nats:\/\/([a-z0-9-]+)\.([a-z0-9-]+):(\d+)/g)];
    expect(routes.map((r) => r[1]).sort()).toEqual([...Array(sts.spec.replicas).keys()].map((i) => `nats-${i}`));
    for (const r of routes) {
      expect(r[2]).toBe(sts.spec.serviceName);
      expect(Number(r[3])).toBe(port('cluster'));
    }
    expect(find(objects(), 'Service', sts.spec.serviceName)!.spec.publishNotReadyAddresses).toBe(true);
    // JetStream store on the persistent volume; pid file where the preStop lame-duck signal looks.
    const store = /store_dir: "([^"]+)"/.exec(conf)![1]!;
    const dataMount = (c.volumeMounts as Obj[]).find((m) => m.mountPath === store)!;
    expect((sts.spec.volumeClaimTemplates as Obj[]).map((v) => v.metadata.name)).toContain(dataMount.name);
    const pid = /pid_file: "([^"]+)"/.exec(conf)![1]!;
    expect((c.volumeMounts as Obj[]).map((m) => m.mountPath)).toContain(path.posix.dirname(pid));
    expect(c.lifecycle.preStop.exec.command).toEqual(['nats-server', `-sl=ldm=${pid}`]);
    const lameDuck = Number(/lame_duck_duration: (\d+)s/.exec(conf)![1]);
    expect(sts.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(lameDuck);

    const natsServer = which('nats-server');
    if (!natsServer) {
      console.warn('nats-server not installed: skipping `nats-server -t` on the NATS config');
      return;
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptyws-nats-'));
    const file = path.join(dir, 'nats.conf');
    fs.writeFileSync(file, conf);
    // The variables the config names ($NATS_EDGE_PASSWORD, …), as the container's env gives them.
    const natsEnv = Object.fromEntries(
      [...containerEnv(objects(), sts.metadata.namespace, c)].flatMap(([k, v]) => (v.value ? [[k, v.value]] : [])),
    );
    const r = spawnSync(natsServer, ['-t', '-c', file], {
      encoding: 'utf8',
      env: { ...process.env, ...natsEnv, [serverVar]: 'nats-0' },
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(`${r.stdout}${r.stderr}`).toMatch(/valid/);
    expect(r.status).toBe(0);
  });

  test('images: pinned, and built from this repository for edge/agent', () => {
    for (const [c, image] of [
      ['edge', 'pty-ws/edge'],
      ['agent', 'pty-ws/pty-agent'],
    ]) {
      const img = parseImage(mainContainer(workloadByComponent(objects(), c!)).image);
      expect(img.name.endsWith(image!)).toBe(true);
      expect(img.tag ?? img.digest).toBeTruthy();
    }
  });
});

describe('overlays', () => {
  test('Postgres is external in base and production, in-cluster only in dev', () => {
    const hasPg = (t: string) => objectsOf(t).some((o) => o.kind === 'StatefulSet' && o.metadata.name === 'postgres');
    expect(hasPg('base')).toBe(false);
    expect(hasPg('overlays/production')).toBe(false);
    expect(hasPg('overlays/dev')).toBe(true);
    const url = (t: string) => secretData(find(objectsOf(t), 'Secret', 'ptyws-database')!).url!;
    expect(new URL(url('overlays/production')).hostname).toContain('.');
    const dev = new URL(url('overlays/dev'));
    expect(dev.hostname).toBe('postgres');
    // The dev URL's credentials are the ones the dev Postgres is initialised with.
    const pg = secretData(find(objectsOf('overlays/dev'), 'Secret', 'postgres-dev')!);
    expect([dev.username, decodeURIComponent(dev.password), dev.pathname.slice(1)]).toEqual([
      pg.POSTGRES_USER,
      pg.POSTGRES_PASSWORD,
      pg.POSTGRES_DB,
    ]);
  });

  test('production runs more edges than dev and pulls from a registry', () => {
    const edge = (t: string) => workloadByComponent(objectsOf(t), 'edge');
    expect(edge('overlays/production').obj.spec.replicas).toBeGreaterThan(edge('overlays/dev').obj.spec.replicas);
    expect(parseImage(mainContainer(edge('overlays/production')).image).name).toMatch(/^[a-z0-9.-]+\.[a-z]+\//);
  });

  test('the renderer rejects a patch that targets nothing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptyws-kust-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'kustomization.yaml'),
        YAML.stringify({
          apiVersion: 'kustomize.config.k8s.io/v1beta1',
          kind: 'Kustomization',
          resources: [path.relative(dir, path.join(K8S, 'base'))],
          patches: [
            {
              patch: YAML.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'no-such-edge' } }),
            },
          ],
        }),
      );
      expect(() => renderKustomization(dir)).toThrow(/matches no resource/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the schema check catches a misspelt field and a wrong type', () => {
    const edge = structuredClone(workloadByComponent(objectsOf('base'), 'edge').obj);
    const c = edge.spec.template.spec.containers[0];
    c.readinesProbe = c.readinessProbe;
    c.ports[0].containerPort = 'eighty';
    const r = validateObject(edge);
    expect(r.unknown).toEqual(['.spec.template.spec.containers[0].readinesProbe']);
    expect(r.errors.join()).toMatch(/containerPort must be integer/);
  });
});

/** Deep copy with object keys sorted and keyed lists sorted, for order-insensitive comparison. */
function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) {
    const items = v.map(sortDeep);
    const key = ['name', 'mountPath', 'containerPort', 'topologyKey', 'port'].find((k) =>
      items.every((i) => i && typeof i === 'object' && k in (i as Obj)),
    );
    return key ? [...items].sort((a, b) => String((a as Obj)[key]).localeCompare(String((b as Obj)[key]))) : items;
  }
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as Obj)
        .sort()
        .map((k) => [k, sortDeep((v as Obj)[k])]),
    );
  }
  return v;
}
