import * as protobuf from 'protobufjs';

/** A JSON value as `JSON.parse` returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A proto message as `@grpc/proto-loader` hands it over and accepts it (see LOADER_OPTIONS). */
export type ProtoObject = Record<string, unknown>;

/** JSON that does not fit the message type; `path` names the field (`message.parts[0].text`). */
export class ProtoJsonError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'ProtoJsonError';
  }
}

export interface ProtoJsonOptions {
  /**
   * Enum value prefixes the JSON leaves out, by enum full name (`.lf.a2a.v1.TaskState` →
   * `TASK_STATE_`): pty-ws/v1 writes task states as its binding text does (`COMPLETED`). Input
   * accepts both spellings; output uses the short one.
   */
  shortEnumPrefixes?: Readonly<Record<string, string>>;
  /**
   * Rewrites a message's JSON before it is mapped (by message full name, e.g. `.lf.a2a.v1.Part`):
   * how a wire accepts older spellings of a message without loss.
   */
  upgrade?: (typeFullName: string, json: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Field names on output: `proto` (the original snake_case names, as pty-ws/v1 writes them) or
   * `json` (lowerCamelCase, the proto3 JSON default that A2A v1.0 mandates). Input accepts both.
   */
  outputNames?: 'proto' | 'json';
  /**
   * Writes fields marked `(google.api.field_behavior) = REQUIRED` even when they hold their
   * default value (`nextPageToken: ""`, `tasks: []`): A2A v1.0 requires them present.
   */
  writeRequired?: boolean;
}

const INT32 = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32']);
const INT64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * The proto3 JSON mapping with original (snake_case) field names, over protobufjs reflection:
 * `toProto` turns JSON into the object form grpc-js serializes, `fromProto` turns a decoded
 * message back into JSON. Well-known types get their JSON forms (Struct/Value/ListValue as plain
 * JSON, Timestamp as RFC 3339, Empty as `{}`); default values are omitted on output, unknown
 * fields are rejected on input (a silently dropped field would be data loss).
 */
export class ProtoJson {
  constructor(
    private readonly root: protobuf.Root,
    private readonly options: ProtoJsonOptions = {},
  ) {}

  /** JSON → the object grpc-js/protobufjs `fromObject` accepts. Throws ProtoJsonError. */
  toProto(typeName: string, json: unknown, path = typeName): ProtoObject {
    return this.messageToProto(this.root.lookupType(typeName), json, path);
  }

  /** A decoded message (LOADER_OPTIONS objects) → JSON. */
  fromProto(typeName: string, message: ProtoObject): JsonObject {
    return this.messageFromProto(this.root.lookupType(typeName), message);
  }

  /** JSON → wire bytes → JSON: what a message survives in transit (tests, diagnostics). */
  roundTrip(typeName: string, json: unknown): JsonObject {
    const type = this.root.lookupType(typeName);
    const bytes = type.encode(type.fromObject(this.toProto(typeName, json))).finish();
    const decoded = type.toObject(type.decode(bytes), {
      longs: String,
      enums: String,
      bytes: String,
      defaults: false,
      oneofs: true,
    });
    return this.fromProto(typeName, decoded);
  }

  // ---- JSON → proto -------------------------------------------------------------------------

  private messageToProto(type: protobuf.Type, input: unknown, path: string): ProtoObject {
    const wkt = wellKnownToProto(type.fullName, input, path);
    if (wkt !== undefined) return wkt;
    if (!isPlainObject(input)) throw new ProtoJsonError(path, `must be a JSON object (${type.name})`);
    const json = this.options.upgrade ? this.options.upgrade(type.fullName, input) : input;
    const out: ProtoObject = {};
    const oneofSeen = new Map<string, string>();
    for (const [key, value] of Object.entries(json)) {
      const field = type.fields[key] ?? type.fieldsArray.find((f) => jsonName(f.name) === key);
      const at = `${path}.${key}`;
      if (!field) throw new ProtoJsonError(at, `unknown field of ${type.name}`);
      // null is "absent" in proto3 JSON, except for google.protobuf.Value (its null_value).
      if (value === null && field.resolvedType?.fullName !== '.google.protobuf.Value') continue;
      if (value === undefined) continue;
      if (field.partOf && !field.partOf.name.startsWith('_')) {
        const other = oneofSeen.get(field.partOf.name);
        if (other) throw new ProtoJsonError(at, `only one of ${other} and ${field.name} may be set`);
        oneofSeen.set(field.partOf.name, field.name);
      }
      out[field.name] = this.fieldToProto(field, value, at);
    }
    return out;
  }

  private fieldToProto(field: protobuf.Field, value: unknown, path: string): unknown {
    if (field.map) {
      if (!isPlainObject(value)) throw new ProtoJsonError(path, 'must be a JSON object (map)');
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.singleToProto(field, v, `${path}.${k}`);
      return out;
    }
    if (field.repeated) {
      if (!Array.isArray(value)) throw new ProtoJsonError(path, 'must be an array');
      return value.map((v, i) => this.singleToProto(field, v, `${path}[${i}]`));
    }
    return this.singleToProto(field, value, path);
  }

  private singleToProto(field: protobuf.Field, value: unknown, path: string): unknown {
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Type) return this.messageToProto(resolved, value, path);
    if (resolved instanceof protobuf.Enum) return this.enumToProto(resolved, value, path);
    return scalarToProto(field.type, value, path);
  }

  private enumToProto(e: protobuf.Enum, value: unknown, path: string): string {
    if (typeof value === 'number' && Number.isInteger(value)) {
      const name = e.valuesById[value];
      if (name !== undefined) return name;
    }
    if (typeof value === 'string') {
      if (e.values[value] !== undefined) return value;
      const prefix = this.options.shortEnumPrefixes?.[e.fullName];
      if (prefix && e.values[prefix + value] !== undefined) return prefix + value;
    }
    throw new ProtoJsonError(path, `must be one of ${Object.keys(e.values).join(', ')}`);
  }

  // ---- proto → JSON -------------------------------------------------------------------------

  private messageFromProto(type: protobuf.Type, message: ProtoObject): JsonObject {
    const out: JsonObject = {};
    const jsonNames = this.options.outputNames === 'json';
    for (const field of type.fieldsArray) {
      const name = jsonNames ? jsonName(field.name) : field.name;
      const required = this.options.writeRequired === true && isRequired(field);
      const value = message[field.name];
      if (value === undefined || value === null) {
        const fallback = required ? defaultJson(field) : undefined;
        if (fallback !== undefined) out[name] = fallback;
        continue;
      }
      if (field.map) {
        const entries = Object.entries(value as Record<string, unknown>);
        if (entries.length === 0 && !required) continue;
        out[name] = Object.fromEntries(entries.map(([k, v]) => [k, this.singleFromProto(field, v)]));
      } else if (field.repeated) {
        const list = value as unknown[];
        if (list.length === 0 && !required) continue;
        out[name] = list.map((v) => this.singleFromProto(field, v));
      } else {
        const v = this.singleFromProto(field, value);
        // proto3 JSON omits default scalars; presence fields (`optional`, oneof members) keep theirs.
        if (!required && !field.partOf && !field.resolvedType && isDefaultScalar(field.type, v)) continue;
        out[name] = v;
      }
    }
    return out;
  }

  private singleFromProto(field: protobuf.Field, value: unknown): JsonValue {
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Type) {
      const wkt = wellKnownFromProto(resolved.fullName, value as ProtoObject);
      return wkt !== undefined ? wkt : this.messageFromProto(resolved, value as ProtoObject);
    }
    if (resolved instanceof protobuf.Enum) {
      const name = typeof value === 'number' ? (resolved.valuesById[value] ?? String(value)) : String(value);
      const prefix = this.options.shortEnumPrefixes?.[resolved.fullName];
      return prefix && name.startsWith(prefix) ? name.slice(prefix.length) : name;
    }
    if (INT64.has(field.type)) return String(value);
    return value as JsonValue;
  }
}

function jsonName(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

const FIELD_BEHAVIOR = '(google.api.field_behavior)';

/** `[(google.api.field_behavior) = REQUIRED]` (protobufjs keeps the option as written). */
function isRequired(field: protobuf.Field): boolean {
  const behavior: unknown = field.options?.[FIELD_BEHAVIOR];
  return behavior === 'REQUIRED' || (Array.isArray(behavior) && behavior.includes('REQUIRED'));
}

/** The JSON of an unset REQUIRED field: its default (a message has none to invent). */
function defaultJson(field: protobuf.Field): JsonValue | undefined {
  if (field.map) return {};
  if (field.repeated) return [];
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum) return resolved.valuesById[0] ?? null;
  if (resolved) return undefined;
  if (field.type === 'string' || field.type === 'bytes') return '';
  if (field.type === 'bool') return false;
  return INT64.has(field.type) ? '0' : 0;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isDefaultScalar(type: string, v: JsonValue): boolean {
  return v === '' || v === 0 || v === false || (INT64.has(type) && v === '0');
}

function scalarToProto(type: string, value: unknown, path: string): unknown {
  if (type === 'string') {
    if (typeof value !== 'string') throw new ProtoJsonError(path, 'must be a string');
    return value;
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw new ProtoJsonError(path, 'must be a boolean');
    return value;
  }
  if (type === 'bytes') {
    if (typeof value !== 'string' || !BASE64.test(value)) throw new ProtoJsonError(path, 'must be base64 text');
    return value;
  }
  if (INT32.has(type) || INT64.has(type)) {
    const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
    const unsigned = type.startsWith('u') || type.startsWith('fixed');
    if (typeof n !== 'number' || !Number.isInteger(n) || (unsigned && n < 0))
      throw new ProtoJsonError(path, `must be an integer (${type})`);
    if (INT32.has(type) && (n > 0xffffffff || n < -0x80000000 || (!unsigned && n > 0x7fffffff)))
      throw new ProtoJsonError(path, `out of range for ${type}`);
    return INT64.has(type) ? String(value) : n;
  }
  if (type === 'double' || type === 'float') {
    if (typeof value === 'number') return value;
    if (value === 'NaN' || value === 'Infinity' || value === '-Infinity') return Number(value);
    throw new ProtoJsonError(path, 'must be a number');
  }
  throw new ProtoJsonError(path, `unsupported field type ${type}`);
}

// ---- well-known types ---------------------------------------------------------------------------

function valueToProto(v: unknown, path: string): ProtoObject {
  if (v === null) return { nullValue: 'NULL_VALUE' };
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new ProtoJsonError(path, 'must be a finite number');
    return { numberValue: v };
  }
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (Array.isArray(v)) return { listValue: { values: v.map((x, i) => valueToProto(x, `${path}[${i}]`)) } };
  if (isPlainObject(v)) return { structValue: structToProto(v, path) };
  throw new ProtoJsonError(path, 'must be a JSON value');
}

function structToProto(v: Record<string, unknown>, path: string): ProtoObject {
  const fields: Record<string, ProtoObject> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) fields[k] = valueToProto(x, `${path}.${k}`);
  return { fields };
}

function timestampToProto(v: unknown, path: string): ProtoObject {
  const m = typeof v === 'string' ? RFC3339.exec(v) : null;
  const ms = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  if (!m || Number.isNaN(ms)) throw new ProtoJsonError(path, 'must be an RFC 3339 timestamp');
  return { seconds: String(Math.floor(ms / 1000)), nanos: Number((m[2] ?? '').padEnd(9, '0')) };
}

/** Java/JS style: 3 fractional digits when the nanos are whole milliseconds (as toISOString). */
function timestampFromProto(t: ProtoObject): string {
  const seconds = Number(t['seconds'] ?? 0);
  const nanos = Number(t['nanos'] ?? 0);
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  const frac =
    nanos % 1_000_000 === 0
      ? String(nanos / 1_000_000).padStart(3, '0')
      : nanos % 1000 === 0
        ? String(nanos / 1000).padStart(6, '0')
        : String(nanos).padStart(9, '0');
  return `${base}.${frac}Z`;
}

function wellKnownToProto(fullName: string, json: unknown, path: string): ProtoObject | undefined {
  switch (fullName) {
    case '.google.protobuf.Struct':
      if (!isPlainObject(json)) throw new ProtoJsonError(path, 'must be a JSON object');
      return structToProto(json, path);
    case '.google.protobuf.Value':
      return valueToProto(json, path);
    case '.google.protobuf.ListValue':
      if (!Array.isArray(json)) throw new ProtoJsonError(path, 'must be an array');
      return { values: json.map((x, i) => valueToProto(x, `${path}[${i}]`)) };
    case '.google.protobuf.Timestamp':
      return timestampToProto(json, path);
    case '.google.protobuf.Empty':
      if (!isPlainObject(json) || Object.keys(json).length > 0) throw new ProtoJsonError(path, 'must be {}');
      return {};
    default:
      return undefined;
  }
}

function valueFromProto(v: ProtoObject): JsonValue {
  const kind =
    (v['kind'] as string | undefined) ?? Object.keys(v).find((k) => k.endsWith('Value') || k === 'nullValue');
  switch (kind) {
    case 'numberValue':
      return v['numberValue'] as number;
    case 'stringValue':
      return v['stringValue'] as string;
    case 'boolValue':
      return v['boolValue'] as boolean;
    case 'structValue':
      return structFromProto((v['structValue'] ?? {}) as ProtoObject);
    case 'listValue':
      return (((v['listValue'] as ProtoObject | undefined)?.['values'] ?? []) as ProtoObject[]).map(valueFromProto);
    default:
      return null;
  }
}

function structFromProto(s: ProtoObject): JsonObject {
  const fields = (s['fields'] ?? {}) as Record<string, ProtoObject>;
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, valueFromProto(v)]));
}

function wellKnownFromProto(fullName: string, message: ProtoObject): JsonValue | undefined {
  switch (fullName) {
    case '.google.protobuf.Struct':
      return structFromProto(message);
    case '.google.protobuf.Value':
      return valueFromProto(message);
    case '.google.protobuf.ListValue':
      return ((message['values'] ?? []) as ProtoObject[]).map(valueFromProto);
    case '.google.protobuf.Timestamp':
      return timestampFromProto(message);
    case '.google.protobuf.Empty':
      return {};
    default:
      return undefined;
  }
}
