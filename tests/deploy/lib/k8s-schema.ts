/**
 * Offline schema validation of Kubernetes objects with the `kubernetes-models` package (JSON
 * schemas generated from the Kubernetes OpenAPI spec, compiled to ajv validators) and
 * `@kubernetes-models/prometheus-operator` for monitoring.coreos.com CRDs.
 *
 * The Kubernetes schemas allow unknown fields (the API server prunes or rejects them later), so a
 * misspelt `readinesProbe` would pass plain validation. We add kubeconform-style strictness: the
 * object is validated through a Proxy that records which properties the validator looked at; a
 * property of a schema-checked object that the validator never read is not in the schema.
 */
import type { Obj } from './kustomize';

/* eslint-disable @typescript-eslint/no-require-imports */
type ModelCtor = { prototype: { validate(this: unknown): void } };

function modelFor(apiVersion: string, kind: string): ModelCtor | undefined {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  let mod: Record<string, ModelCtor> | undefined;
  try {
    if (group === 'monitoring.coreos.com') {
      mod = require(`@kubernetes-models/prometheus-operator/${group}/${version}`);
    } else {
      mod = require(group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`);
    }
  } catch {
    return undefined;
  }
  return mod?.[kind];
}

function tracked<T extends object>(root: T): { proxy: T; accessed: Map<object, Set<string>> } {
  const accessed = new Map<object, Set<string>>();
  const proxies = new Map<object, object>();
  const wrap = (o: unknown): unknown => {
    if (o === null || typeof o !== 'object') return o;
    const existing = proxies.get(o);
    if (existing) return existing;
    accessed.set(o, new Set());
    const p = new Proxy(o, {
      get(t, prop, r) {
        if (typeof prop === 'string') accessed.get(t)!.add(prop);
        return wrap(Reflect.get(t, prop, r));
      },
      has(t, prop) {
        if (typeof prop === 'string') accessed.get(t)!.add(prop);
        return Reflect.has(t, prop);
      },
      ownKeys(t) {
        // Iterating the keys (additionalProperties / patternProperties) checks all of them.
        for (const k of Reflect.ownKeys(t)) if (typeof k === 'string') accessed.get(t)!.add(k);
        return Reflect.ownKeys(t);
      },
    });
    proxies.set(o, p);
    return p;
  };
  return { proxy: wrap(root) as T, accessed };
}

function unknownFields(root: unknown, accessed: Map<object, Set<string>>): string[] {
  const out: string[] = [];
  const walk = (o: unknown, at: string): void => {
    if (o === null || typeof o !== 'object') return;
    if (Array.isArray(o)) {
      o.forEach((x, i) => walk(x, `${at}[${i}]`));
      return;
    }
    const seen = accessed.get(o);
    // An object the validator never looked into has no schema of its own (free-form): skip it.
    const checked = !!seen && seen.size > 0;
    for (const k of Object.keys(o)) {
      if (checked && !seen!.has(k)) out.push(`${at}.${k}`);
      walk((o as Obj)[k], `${at}.${k}`);
    }
  };
  walk(root, '');
  return out;
}

export interface SchemaResult {
  /** Schema errors (empty when valid). */
  errors: string[];
  /** Properties not in the schema (typos, wrong nesting). */
  unknown: string[];
}

export function validateObject(o: Obj): SchemaResult {
  const Model = modelFor(String(o.apiVersion), String(o.kind));
  if (!Model) return { errors: [`no schema for ${o.apiVersion} ${o.kind}`], unknown: [] };
  const data = structuredClone(o);
  const { proxy, accessed } = tracked(data);
  const errors: string[] = [];
  try {
    Model.prototype.validate.call(proxy);
  } catch (e) {
    errors.push((e as Error).message);
  }
  return { errors, unknown: unknownFields(data, accessed) };
}
