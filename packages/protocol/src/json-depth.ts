/**
 * Deepest nesting a request may carry. JSON.parse itself copes with far deeper input, but later
 * recursive walks (schema validation, structuredClone, task stores, renderers) overflow the stack
 * somewhere past a few thousand levels: refusing at parse answers INVALID_REQUEST instead of INTERNAL.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests arrays/objects deeper than `max` (iterative: it cannot overflow itself). */
export function jsonTooDeep(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
