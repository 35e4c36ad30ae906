import { jsonShapeProblem } from '@tabmcp/protocol/light';

/**
 * The tools of a list that can travel: a tool whose definition holds a cycle, nests too deep or
 * expands too far as JSON (a DAG of shared objects) would make the whole answer fail to clone or
 * serialise, and with it every other tool of the page (issue 38). Such a tool is left out alone,
 * and the page's console says which and why.
 */
export function listableTools<T>(tools: readonly T[]): T[] {
  return tools.filter((tool) => {
    const problem = jsonShapeProblem(tool);
    if (problem === undefined) return true;
    const name = (tool as { name?: unknown } | null)?.name;
    console.warn(
      `[tabmcp] tool ${typeof name === 'string' ? `"${name.slice(0, 64)}"` : '(no name)'} is not listed: ${problem}`,
    );
    return false;
  });
}
