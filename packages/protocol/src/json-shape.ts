/** How deep a page-written value (a tool's schema) may nest: real schemas stay far below it. */
export const MAX_JSON_DEPTH = 64;

/**
 * Why `value` cannot travel as JSON, or undefined when it can: a cycle (a page's structured clone
 * may carry one), nesting deeper than `maxDepth` (JSON.stringify would overflow the stack), or a
 * value JSON has no form for. Iterative, so a hostile depth cannot overflow this check either.
 * Each page tool is checked alone, so one such schema refuses only its own tool (issue 26: it
 * emptied the whole tab's list).
 */
export function jsonShapeProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const stack: Array<{ value: unknown; depth: number; ancestors: ReadonlySet<object> }> = [
    { value, depth: 0, ancestors: new Set() },
  ];
  while (stack.length > 0) {
    const { value: current, depth, ancestors } = stack.pop() as (typeof stack)[number];
    if (current === null || typeof current === 'string' || typeof current === 'boolean') continue;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return 'it holds a number JSON cannot carry';
      continue;
    }
    if (typeof current !== 'object') return `it holds a ${typeof current}, which JSON cannot carry`;
    if (ancestors.has(current)) return 'it refers to itself (a cycle)';
    if (depth >= maxDepth) return `it nests deeper than ${maxDepth} levels`;
    const inside = new Set(ancestors).add(current);
    for (const child of Object.values(current)) {
      if (child !== undefined) stack.push({ value: child, depth: depth + 1, ancestors: inside });
    }
  }
  return undefined;
}
