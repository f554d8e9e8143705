/**
 * Schema names are interpolated into SQL (identifiers cannot be bind parameters), so they are
 * restricted to plain lower-case identifiers and quoted on top.
 */
const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA.test(schema)) {
    throw new RangeError(`PostgreSQL schema must match ${SCHEMA.source}, got '${schema}'`);
  }
}

/** `"schema"."table"`. */
export function qualified(schema: string, table: string): string {
  assertSchemaName(schema);
  return `"${schema}"."${table}"`;
}

/** pg returns int8 as a string (it may exceed 2^53); epoch milliseconds never do. */
export function toMillis(value: string | number): number {
  return typeof value === 'number' ? value : Number(value);
}

export function optionalMillis(value: string | number | null): number | undefined {
  return value === null ? undefined : toMillis(value);
}

/** SQLSTATE 23505: which unique constraint a duplicate hit. */
export function uniqueViolation(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; constraint?: unknown };
  return e.code === '23505' ? String(e.constraint ?? '') : undefined;
}
