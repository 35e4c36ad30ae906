/** How deep a page-written value (a tool's schema) may nest: real schemas stay far below it. */
export const MAX_JSON_DEPTH = 64;
/**
 * How many values one page-written value (a tool's definition) may hold once written out as JSON.
 * Real schemas hold hundreds; 50,000 is at least 100 KB of JSON, and a tab's tools may take 768 KB
 * in all. The count is of the value as JSON writes it, so an object shared a million times counts
 * a million times: a 2^22-node DAG of shared sub-objects is a few KB in a structured clone and
 * gigabytes as JSON (issue 38: it emptied its tab).
 */
export const MAX_JSON_NODES = 50_000;

export interface JsonShapeLimits {
  maxDepth?: number;
  maxNodes?: number;
}

/** What the walk keeps per value: `exit` marks the point where a value's children are all done. */
type Step = { value: unknown; depth: number } | { exit: object };

/**
 * Why `value` cannot travel as JSON, or undefined when it can: a cycle (a page's structured clone
 * may carry one), nesting deeper than `maxDepth` (JSON.stringify would overflow the stack), more
 * than `maxNodes` values as JSON writes them (shared objects count at each use), or a value JSON
 * has no form for. Iterative, so a hostile depth cannot overflow this check either, and it stops
 * after `maxNodes` values, so its work is bounded whatever it is given. Each page tool is checked
 * alone, so one such definition refuses only its own tool (issue 26: it emptied the whole tab's list).
 */
export function jsonShapeProblem(value: unknown, limits: JsonShapeLimits = {}): string | undefined {
  const maxDepth = limits.maxDepth ?? MAX_JSON_DEPTH;
  const maxNodes = limits.maxNodes ?? MAX_JSON_NODES;
  // The objects on the path from the root to the value being looked at: a cycle meets one of them.
  const path = new Set<object>();
  const stack: Step[] = [{ value, depth: 0 }];
  // Counted as they are queued, so neither the work nor the queue outgrows `maxNodes`.
  let nodes = 1;
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    if ('exit' in step) {
      path.delete(step.exit);
      continue;
    }
    const { value: current, depth } = step;
    if (current === null || typeof current === 'string' || typeof current === 'boolean') continue;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return 'it holds a number JSON cannot carry';
      continue;
    }
    if (typeof current !== 'object') return `it holds a ${typeof current}, which JSON cannot carry`;
    if (path.has(current)) return 'it refers to itself (a cycle)';
    if (depth >= maxDepth) return `it nests deeper than ${maxDepth} levels`;
    path.add(current);
    stack.push({ exit: current });
    for (const child of Object.values(current)) {
      if (child === undefined) continue;
      nodes += 1;
      if (nodes > maxNodes) return `it holds more than ${maxNodes} values once written out as JSON`;
      stack.push({ value: child, depth: depth + 1 });
    }
  }
  return undefined;
}
