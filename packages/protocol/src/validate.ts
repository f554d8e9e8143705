import { MAX_JSON_DEPTH, jsonTooDeep } from './json-depth';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { Envelope } from './envelope';
import { BindingError } from './errors';
import type { ClientFrame } from './client-frames';
import { isClientOp } from './ops';
import { envelopeSchema, payloadSchemas } from './schemas';

interface Validators {
  envelope: ValidateFunction;
  payloads: Map<string, ValidateFunction>;
}

let compiled: Validators | undefined;

/**
 * Compiled on first use, not at import: compiling every schema costs ~300 ms, which every CLI
 * start and browser page paid even when it never validated an inbound frame. Servers compile them
 * at start-up instead (compileClientFrameValidators).
 */
function validators(): Validators {
  if (!compiled) {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { default: Ajv2020 } = require('ajv/dist/2020') as typeof import('ajv/dist/2020');
    const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const ajv = new Ajv2020({ allErrors: false, strict: false });
    addFormats(ajv, ['date-time']);
    compiled = {
      envelope: ajv.compile(envelopeSchema),
      payloads: new Map(Object.entries(payloadSchemas).map(([op, schema]) => [op, ajv.compile(schema)])),
    };
  }
  return compiled;
}

/**
 * Compiles the validators now rather than on the first frame (~180-300 ms): a server calls it at
 * start-up, so the first client after a restart or a rolling deploy is not the one who waits.
 * Returns false when they were compiled already.
 */
export function compileClientFrameValidators(): boolean {
  if (compiled) return false;
  validators();
  return true;
}

/** A frame that could not be accepted, with the request id to echo when one was readable. */
export class FrameRejected extends BindingError {
  constructor(
    code: 'INVALID_REQUEST' | 'UNSUPPORTED_OPERATION',
    message: string,
    readonly requestId: string | undefined,
  ) {
    super(code, message);
  }
}

function describe(errors: ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return 'invalid';
  const where = e.instancePath || '(root)';
  if (e.keyword === 'additionalProperties') {
    return `${where}: unknown field '${String(e.params['additionalProperty'])}'`;
  }
  if (e.keyword === 'false schema') return `${where}: field is not allowed from a client`;
  return `${where} ${e.message ?? 'is invalid'}`;
}

function readableId(value: unknown): string | undefined {
  if (value && typeof value === 'object' && 'id' in value) {
    const id = (value as { id: unknown }).id;
    if (typeof id === 'string' && id.length > 0 && id.length <= 128) return id;
  }
  return undefined;
}

/**
 * Parses and validates one client→server text frame, once: pure (no I/O), and the result's
 * payload is typed by its op. Throws FrameRejected with the binding code
 * to answer with: malformed JSON or envelope → INVALID_REQUEST; unknown op → UNSUPPORTED_OPERATION.
 */
export function parseClientFrame(text: string): ClientFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new FrameRejected('INVALID_REQUEST', 'frame is not valid JSON', undefined);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new FrameRejected('INVALID_REQUEST', 'a frame must be a single JSON object', undefined);
  }
  if (jsonTooDeep(value)) {
    throw new FrameRejected('INVALID_REQUEST', `a frame may nest at most ${MAX_JSON_DEPTH} levels`, undefined);
  }
  const requestId = readableId(value);
  const { envelope: validateEnvelope, payloads } = validators();
  if (!validateEnvelope(value)) {
    throw new FrameRejected('INVALID_REQUEST', `malformed envelope: ${describe(validateEnvelope.errors)}`, requestId);
  }
  const frame = value as Envelope<Record<string, unknown> | null>;
  if (!isClientOp(frame.op)) {
    throw new FrameRejected('UNSUPPORTED_OPERATION', `unsupported operation '${frame.op}'`, requestId);
  }
  const payload = frame.payload ?? {};
  const check = payloads.get(frame.op);
  if (check && !check(payload)) {
    throw new FrameRejected('INVALID_REQUEST', `invalid ${frame.op} payload: ${describe(check.errors)}`, requestId);
  }
  // The schemas checked the payload against its op: this is where it becomes ClientPayloads[op].
  return { ...frame, op: frame.op, payload } as ClientFrame;
}
