/**
 * A small, strict Kustomize-style renderer for deploy/kubernetes: enough of kustomize v5 for the
 * features our kustomizations use, and an error for anything else (so a new feature cannot be
 * silently mis-rendered). Supported: resources (files and kustomization directories), namespace,
 * images, patches (strategic-merge files or inline, and JSON 6902 with a target).
 * When kubectl is installed, kubernetes.test.ts also compares this output with `kubectl kustomize`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as YAML from 'yaml';

export type Obj = Record<string, any>;

export interface RenderResult {
  objects: Obj[];
  /** One line per patch: what it matched (the tests require exactly one resource each). */
  patchLog: string[];
}

const SUPPORTED_FIELDS = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'images', 'patches']);

/** Kinds that are not namespaced (kustomize's namespace transformer leaves them alone). */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PriorityClass',
  'StorageClass',
  'PersistentVolume',
  'IngressClass',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);

export function isNamespaced(kind: string): boolean {
  return !CLUSTER_SCOPED.has(kind);
}

export function loadYamlDocs(file: string): Obj[] {
  const docs = YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'));
  const out: Obj[] = [];
  for (const d of docs) {
    if (d.errors.length) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
    const js = d.toJS();
    if (js !== null && js !== undefined) out.push(js);
  }
  return out;
}

export function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.split('/')[0]! : '';
}

export function id(o: Obj): string {
  const ns = o.metadata?.namespace ? `${o.metadata.namespace}/` : '';
  return `${o.kind} ${ns}${o.metadata?.name}`;
}

export function renderKustomization(dir: string): RenderResult {
  const patchLog: string[] = [];
  const objects = render(path.resolve(dir), patchLog);
  const seen = new Set<string>();
  for (const o of objects) {
    const key = `${o.apiVersion} ${id(o)}`;
    if (seen.has(key)) throw new Error(`duplicate resource ${key}`);
    seen.add(key);
  }
  return { objects, patchLog };
}

function render(dir: string, patchLog: string[]): Obj[] {
  const kfile = ['kustomization.yaml', 'kustomization.yml', 'Kustomization']
    .map((f) => path.join(dir, f))
    .find((f) => fs.existsSync(f));
  if (!kfile) throw new Error(`${dir}: no kustomization.yaml`);
  const k = YAML.parse(fs.readFileSync(kfile, 'utf8')) as Obj;
  if (k.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || k.kind !== 'Kustomization') {
    throw new Error(`${kfile}: expected apiVersion kustomize.config.k8s.io/v1beta1, kind Kustomization`);
  }
  for (const field of Object.keys(k)) {
    if (!SUPPORTED_FIELDS.has(field)) {
      throw new Error(
        `${kfile}: field "${field}" is not supported by the test renderer (tests/deploy/lib/kustomize.ts)`,
      );
    }
  }

  let objects: Obj[] = [];
  for (const r of (k.resources ?? []) as string[]) {
    const p = path.resolve(dir, r);
    if (!fs.existsSync(p)) throw new Error(`${kfile}: resource ${r} does not exist`);
    if (fs.statSync(p).isDirectory()) objects.push(...render(p, patchLog));
    else objects.push(...loadYamlDocs(p));
  }
  objects = objects.map((o) => structuredClone(o));

  for (const [i, p] of ((k.patches ?? []) as Obj[]).entries()) {
    const where = `${path.relative(process.cwd(), kfile)} patches[${i}]`;
    for (const key of Object.keys(p)) {
      if (!['path', 'patch', 'target'].includes(key)) throw new Error(`${where}: unsupported key ${key}`);
    }
    let text: string;
    if (p.path) {
      const file = path.resolve(dir, p.path);
      if (!fs.existsSync(file)) throw new Error(`${where}: patch file ${p.path} does not exist`);
      text = fs.readFileSync(file, 'utf8');
    } else if (typeof p.patch === 'string') {
      text = p.patch;
    } else {
      throw new Error(`${where}: needs path or patch`);
    }
    const docs = YAML.parseAllDocuments(text)
      .map((d) => d.toJS())
      .filter((d) => d != null);
    if (docs.length === 1 && Array.isArray(docs[0])) {
      if (!p.target) throw new Error(`${where}: a JSON 6902 patch needs a target`);
      const targets = select(objects, p.target);
      if (targets.length === 0) throw new Error(`${where}: target ${JSON.stringify(p.target)} matches no resource`);
      for (const t of targets) {
        applyJsonPatch(t, docs[0] as Obj[], where);
        patchLog.push(`${where} -> ${id(t)}`);
      }
      continue;
    }
    for (const doc of docs as Obj[]) {
      const target = p.target ?? {
        group: groupOf(doc.apiVersion ?? ''),
        version: (doc.apiVersion ?? '').split('/').pop(),
        kind: doc.kind,
        name: doc.metadata?.name,
      };
      const targets = select(objects, target);
      if (targets.length === 0) {
        throw new Error(`${where}: strategic merge patch for ${doc.kind} ${doc.metadata?.name} matches no resource`);
      }
      for (const t of targets) {
        if (doc.$patch === 'delete') {
          objects = objects.filter((o) => o !== t);
        } else {
          const patch = structuredClone(doc);
          // The patch's identity never renames the target.
          if (patch.metadata) {
            delete patch.metadata.name;
            delete patch.metadata.namespace;
          }
          const merged = strategicMerge(t, patch, t.kind, []);
          Object.keys(t).forEach((key) => delete t[key]);
          Object.assign(t, merged);
        }
        patchLog.push(`${where} -> ${id(t)}`);
      }
    }
  }

  for (const img of (k.images ?? []) as Obj[]) {
    let hits = 0;
    for (const o of objects) {
      for (const c of podContainers(o)) {
        const { name, tag, digest } = parseImage(c.image);
        if (name !== img.name) continue;
        hits++;
        const newName = img.newName ?? name;
        if (img.digest) c.image = `${newName}@${img.digest}`;
        else if (img.newTag) c.image = `${newName}:${img.newTag}`;
        else c.image = `${newName}${digest ? `@${digest}` : tag ? `:${tag}` : ''}`;
      }
    }
    if (hits === 0) throw new Error(`${kfile}: image ${img.name} is used by no container`);
  }

  if (k.namespace) {
    for (const o of objects) {
      if (o.kind === 'Namespace') o.metadata.name = k.namespace;
      else if (isNamespaced(o.kind)) o.metadata.namespace = k.namespace;
    }
  }
  return objects;
}

export function parseImage(image: string): { name: string; tag?: string; digest?: string } {
  const at = image.indexOf('@');
  const digest = at >= 0 ? image.slice(at + 1) : undefined;
  const ref = at >= 0 ? image.slice(0, at) : image;
  const colon = ref.lastIndexOf(':');
  if (colon > ref.lastIndexOf('/')) return { name: ref.slice(0, colon), tag: ref.slice(colon + 1), digest };
  return { name: ref, digest };
}

/** The pod template spec of a workload, or undefined. */
export function podSpec(o: Obj): Obj | undefined {
  if (o.kind === 'Pod') return o.spec;
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job'].includes(o.kind)) return o.spec?.template?.spec;
  if (o.kind === 'CronJob') return o.spec?.jobTemplate?.spec?.template?.spec;
  return undefined;
}

export function podContainers(o: Obj): Obj[] {
  const s = podSpec(o);
  if (!s) return [];
  return [...(s.initContainers ?? []), ...(s.containers ?? [])];
}

function select(objects: Obj[], target: Obj): Obj[] {
  for (const key of Object.keys(target)) {
    if (!['group', 'version', 'kind', 'name', 'namespace'].includes(key)) {
      throw new Error(`patch target field "${key}" is not supported by the test renderer`);
    }
  }
  return objects.filter(
    (o) =>
      (target.kind === undefined || o.kind === target.kind) &&
      (target.name === undefined || o.metadata?.name === target.name) &&
      (target.namespace === undefined || o.metadata?.namespace === target.namespace) &&
      (target.group === undefined || groupOf(o.apiVersion) === target.group) &&
      (target.version === undefined || o.apiVersion.split('/').pop() === target.version),
  );
}

// --- strategic merge patch -------------------------------------------------------------------

/** Built-in kinds: lists merged by key (from the Kubernetes API's patchMergeKey). */
const BUILTIN_GROUPS = new Set([
  '',
  'apps',
  'batch',
  'policy',
  'autoscaling',
  'networking.k8s.io',
  'rbac.authorization.k8s.io',
]);

function mergeKeyFor(field: string, items: unknown[]): string[] | undefined {
  switch (field) {
    case 'containers':
    case 'initContainers':
    case 'ephemeralContainers':
    case 'env':
    case 'volumes':
    case 'imagePullSecrets':
      return ['name'];
    case 'volumeMounts':
      return ['mountPath'];
    case 'volumeDevices':
      return ['devicePath'];
    case 'ports':
      // Container ports merge on containerPort, Service ports on port.
      return items.some((i) => i && typeof i === 'object' && 'containerPort' in (i as Obj))
        ? ['containerPort']
        : ['port'];
    case 'topologySpreadConstraints':
      // listMapKeys topologyKey + whenUnsatisfiable (what kustomize v5 merges on).
      return ['topologyKey', 'whenUnsatisfiable'];
    case 'hostAliases':
      return ['ip'];
    default:
      return undefined;
  }
}

function isMap(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function strategicMerge(base: unknown, patch: unknown, kind: string, trail: string[], builtin = true): unknown {
  if (trail.length === 0 && isMap(base)) builtin = BUILTIN_GROUPS.has(groupOf(String(base.apiVersion ?? '')));
  if (isMap(patch)) {
    if (patch.$patch === 'replace') {
      const { $patch: _drop, ...rest } = patch;
      return rest;
    }
    if (patch.$patch !== undefined) throw new Error(`unsupported $patch: ${patch.$patch} at ${trail.join('.')}`);
    const out: Obj = isMap(base) ? { ...base } : {};
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) {
        delete out[key];
      } else {
        out[key] = strategicMerge(out[key], value, kind, [...trail, key], builtin);
      }
    }
    return out;
  }
  if (Array.isArray(patch)) {
    const field = trail[trail.length - 1] ?? '';
    const key = builtin ? mergeKeyFor(field, [...(Array.isArray(base) ? base : []), ...patch]) : undefined;
    if (!key || !Array.isArray(base)) return patch.filter((p) => !(isMap(p) && p.$patch === 'delete'));
    const out = [...base];
    for (const item of patch) {
      if (!isMap(item) || item[key[0]!] === undefined)
        throw new Error(`list ${trail.join('.')} item lacks merge key ${key[0]}`);
      const idx = out.findIndex((b) => isMap(b) && key.every((k) => b[k] === item[k]));
      if (item.$patch === 'delete') {
        if (idx >= 0) out.splice(idx, 1);
      } else if (idx >= 0) {
        out[idx] = strategicMerge(out[idx], item, kind, [...trail, key.map((k) => String(item[k])).join('/')], builtin);
      } else {
        out.push(item);
      }
    }
    return out;
  }
  return patch;
}

// --- JSON 6902 -------------------------------------------------------------------------------

function pointer(p: string): string[] {
  if (!p.startsWith('/')) throw new Error(`bad JSON pointer ${p}`);
  return p
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function applyJsonPatch(doc: Obj, ops: Obj[], where: string): void {
  for (const op of ops) {
    const parts = pointer(op.path);
    const last = parts.pop()!;
    let parent: any = doc;
    for (const part of parts) {
      parent = Array.isArray(parent) ? parent[Number(part)] : parent?.[part];
      if (parent === undefined) throw new Error(`${where}: path ${op.path} does not exist`);
    }
    const exists = Array.isArray(parent) ? last === '-' || Number(last) < parent.length : last in parent;
    switch (op.op) {
      case 'add':
        if (Array.isArray(parent)) parent.splice(last === '-' ? parent.length : Number(last), 0, op.value);
        else parent[last] = op.value;
        break;
      case 'replace':
        if (!exists) throw new Error(`${where}: replace of missing path ${op.path}`);
        parent[Array.isArray(parent) ? Number(last) : last] = op.value;
        break;
      case 'remove':
        if (!exists) throw new Error(`${where}: remove of missing path ${op.path}`);
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete parent[last];
        break;
      case 'test':
        if (JSON.stringify(parent[last]) !== JSON.stringify(op.value))
          throw new Error(`${where}: test failed at ${op.path}`);
        break;
      default:
        throw new Error(`${where}: JSON patch op ${op.op} is not supported by the test renderer`);
    }
  }
}
