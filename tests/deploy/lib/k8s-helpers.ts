/** Cross-reference helpers for rendered Kubernetes objects: selectors, env, NetworkPolicy. */
import { podSpec, type Obj } from './kustomize';

export type Labels = Record<string, string>;

export function selectorMatches(selector: Obj | undefined, labels: Labels | undefined): boolean {
  if (!selector) return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of (selector.matchExpressions ?? []) as Obj[]) {
    const has = e.key in l;
    switch (e.operator) {
      case 'In':
        if (!has || !e.values.includes(l[e.key])) return false;
        break;
      case 'NotIn':
        if (has && e.values.includes(l[e.key])) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        throw new Error(`unknown selector operator ${e.operator}`);
    }
  }
  return true;
}

/** A plain label map (Service.spec.selector) as a selector. */
export function mapSelector(m: Labels | undefined): Obj | undefined {
  return m ? { matchLabels: m } : undefined;
}

export interface Workload {
  obj: Obj;
  namespace: string;
  labels: Labels;
  spec: Obj;
  ports: { name?: string; containerPort: number; protocol: string }[];
}

export function workloads(objects: Obj[]): Workload[] {
  const out: Workload[] = [];
  for (const o of objects) {
    const spec = podSpec(o);
    if (!spec) continue;
    const labels = (o.kind === 'Pod' ? o.metadata?.labels : o.spec?.template?.metadata?.labels) ?? {};
    const ports = ((spec.containers ?? []) as Obj[]).flatMap((c) =>
      ((c.ports ?? []) as Obj[]).map((p) => ({
        name: p.name,
        containerPort: p.containerPort,
        protocol: p.protocol ?? 'TCP',
      })),
    );
    out.push({ obj: o, namespace: o.metadata?.namespace ?? 'default', labels, spec, ports });
  }
  return out;
}

export function find(objects: Obj[], kind: string, name: string, namespace?: string): Obj | undefined {
  return objects.find(
    (o) =>
      o.kind === kind && o.metadata?.name === name && (namespace === undefined || o.metadata?.namespace === namespace),
  );
}

/** Secret data, decoded (data is base64, stringData plain). */
export function secretData(secret: Obj): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(secret.data ?? {})) out[k] = Buffer.from(String(v), 'base64').toString('utf8');
  for (const [k, v] of Object.entries(secret.stringData ?? {})) out[k] = String(v);
  return out;
}

export interface EnvValue {
  value?: string;
  source: 'literal' | 'configMap' | 'secret' | 'secretFile' | 'fieldRef' | 'resourceFieldRef';
  ref?: string;
  /** secretFile: the mounted file's mode (the volume's defaultMode). */
  mode?: number;
}

/** The environment a container gets, with where each variable comes from. Throws on dangling refs. */
export function containerEnv(objects: Obj[], namespace: string, c: Obj): Map<string, EnvValue> {
  const env = new Map<string, EnvValue>();
  for (const ef of (c.envFrom ?? []) as Obj[]) {
    const prefix = ef.prefix ?? '';
    if (ef.configMapRef) {
      const cm = find(objects, 'ConfigMap', ef.configMapRef.name, namespace);
      if (!cm) {
        if (ef.configMapRef.optional) continue;
        throw new Error(`container ${c.name}: envFrom ConfigMap ${ef.configMapRef.name} does not exist`);
      }
      for (const [k, v] of Object.entries(cm.data ?? {}))
        env.set(prefix + k, { value: String(v), source: 'configMap', ref: cm.metadata.name });
    }
    if (ef.secretRef) {
      const s = find(objects, 'Secret', ef.secretRef.name, namespace);
      if (!s) {
        if (ef.secretRef.optional) continue;
        throw new Error(`container ${c.name}: envFrom Secret ${ef.secretRef.name} does not exist`);
      }
      for (const [k, v] of Object.entries(secretData(s)))
        env.set(prefix + k, { value: v, source: 'secret', ref: s.metadata.name });
    }
  }
  for (const e of (c.env ?? []) as Obj[]) {
    if (e.valueFrom?.configMapKeyRef) {
      const r = e.valueFrom.configMapKeyRef;
      const cm = find(objects, 'ConfigMap', r.name, namespace);
      const v = cm?.data?.[r.key];
      if (v === undefined && !r.optional) throw new Error(`env ${e.name}: ConfigMap ${r.name} has no key ${r.key}`);
      env.set(e.name, { value: v, source: 'configMap', ref: `${r.name}/${r.key}` });
    } else if (e.valueFrom?.secretKeyRef) {
      const r = e.valueFrom.secretKeyRef;
      const s = find(objects, 'Secret', r.name, namespace);
      const v = s ? secretData(s)[r.key] : undefined;
      if (v === undefined && !r.optional) throw new Error(`env ${e.name}: Secret ${r.name} has no key ${r.key}`);
      env.set(e.name, { value: v, source: 'secret', ref: `${r.name}/${r.key}` });
    } else if (e.valueFrom?.fieldRef) {
      env.set(e.name, { source: 'fieldRef', ref: e.valueFrom.fieldRef.fieldPath });
    } else if (e.valueFrom?.resourceFieldRef) {
      env.set(e.name, { source: 'resourceFieldRef', ref: e.valueFrom.resourceFieldRef.resource });
    } else {
      env.set(e.name, { value: e.value ?? '', source: 'literal' });
    }
  }
  return env;
}

/**
 * The variables a container reads from files (`PTYWS_X_FILE=<path>` → PTYWS_X), each resolved
 * through the read-only mount that holds the path to its Secret's key. Throws when the path is
 * in no Secret mount, the mount is writable or the Secret lacks the key.
 */
export function secretFileEnv(objects: Obj[], namespace: string, podSpec: Obj, c: Obj): Map<string, EnvValue> {
  const env = new Map<string, EnvValue>();
  for (const [name, v] of containerEnv(objects, namespace, c)) {
    if (!name.endsWith('_FILE') || !v.value) continue;
    const dir = v.value.slice(0, v.value.lastIndexOf('/'));
    const key = v.value.slice(v.value.lastIndexOf('/') + 1);
    const mount = ((c.volumeMounts ?? []) as Obj[]).find((m) => m.mountPath === dir);
    const volume = ((podSpec.volumes ?? []) as Obj[]).find((x) => x.name === mount?.name);
    if (!mount || !volume?.secret) throw new Error(`${name}: ${v.value} is in no Secret mount`);
    if (mount.readOnly !== true) throw new Error(`${name}: the mount of ${dir} is writable`);
    const secret = find(objects, 'Secret', volume.secret.secretName, namespace);
    const value = secret ? secretData(secret)[key] : undefined;
    if (value === undefined) throw new Error(`${name}: Secret ${volume.secret.secretName} has no key ${key}`);
    env.set(name.slice(0, -'_FILE'.length), {
      value,
      source: 'secretFile',
      ref: `${volume.secret.secretName}/${key}`,
      mode: volume.secret.defaultMode ?? 0o644,
    });
  }
  return env;
}

// --- NetworkPolicy evaluation ------------------------------------------------------------------

export interface Peer {
  label: string;
  /** Pods have a namespace; an external address has ip instead. */
  namespace?: string;
  nsLabels?: Labels;
  labels?: Labels;
  ports?: { name?: string; containerPort: number; protocol: string }[];
  ip?: string;
}

export function podPeer(w: Workload, nsObj: Obj | undefined): Peer {
  return {
    label: `${w.obj.kind}/${w.obj.metadata.name}`,
    namespace: w.namespace,
    nsLabels: { 'kubernetes.io/metadata.name': w.namespace, ...(nsObj?.metadata?.labels ?? {}) },
    labels: w.labels,
    ports: w.ports,
  };
}

function ipInCidr(ip: string, cidr: string): boolean {
  const [net, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  const toInt = (a: string) => a.split('.').reduce((acc, x) => (acc << 8) + Number(x), 0) >>> 0;
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (toInt(ip) & mask) === (toInt(net!) & mask);
}

function peerMatches(rulePeer: Obj, peer: Peer, policyNs: string): boolean {
  if (rulePeer.ipBlock) {
    if (!peer.ip) return false;
    if (!ipInCidr(peer.ip, rulePeer.ipBlock.cidr)) return false;
    return !((rulePeer.ipBlock.except ?? []) as string[]).some((c) => ipInCidr(peer.ip!, c));
  }
  if (!peer.namespace) return false;
  const nsOk = rulePeer.namespaceSelector
    ? selectorMatches(rulePeer.namespaceSelector, peer.nsLabels)
    : peer.namespace === policyNs;
  const podOk = rulePeer.podSelector ? selectorMatches(rulePeer.podSelector, peer.labels) : true;
  return nsOk && podOk;
}

function portMatches(rulePorts: Obj[] | undefined, dst: Peer, port: number, protocol: string): boolean {
  if (!rulePorts || rulePorts.length === 0) return true;
  return rulePorts.some((rp) => {
    if ((rp.protocol ?? 'TCP') !== protocol) return false;
    if (rp.port === undefined) return true;
    if (typeof rp.port === 'number') return rp.endPort ? port >= rp.port && port <= rp.endPort : rp.port === port;
    // A named port resolves against the destination pod's container ports.
    return (dst.ports ?? []).some((p) => p.name === rp.port && p.containerPort === port && p.protocol === protocol);
  });
}

function policiesFor(policies: Obj[], peer: Peer, type: 'Ingress' | 'Egress'): Obj[] {
  return policies.filter((p) => {
    if (!peer.namespace || p.metadata.namespace !== peer.namespace) return false;
    const types: string[] = p.spec.policyTypes ?? (p.spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);
    return types.includes(type) && selectorMatches(p.spec.podSelector ?? {}, peer.labels);
  });
}

/** Would `src` be allowed to open a connection to `dst:port/protocol` under these policies? */
export function connectionAllowed(policies: Obj[], src: Peer, dst: Peer, port: number, protocol = 'TCP'): boolean {
  const egress = policiesFor(policies, src, 'Egress');
  const egressOk =
    egress.length === 0 ||
    egress.some((p) =>
      ((p.spec.egress ?? []) as Obj[]).some(
        (rule) =>
          (!rule.to ||
            rule.to.length === 0 ||
            (rule.to as Obj[]).some((t) => peerMatches(t, dst, p.metadata.namespace))) &&
          portMatches(rule.ports, dst, port, protocol),
      ),
    );
  const ingress = policiesFor(policies, dst, 'Ingress');
  const ingressOk =
    ingress.length === 0 ||
    ingress.some((p) =>
      ((p.spec.ingress ?? []) as Obj[]).some(
        (rule) =>
          (!rule.from ||
            rule.from.length === 0 ||
            (rule.from as Obj[]).some((f) => peerMatches(f, src, p.metadata.namespace))) &&
          portMatches(rule.ports, dst, port, protocol),
      ),
    );
  return egressOk && ingressOk;
}
