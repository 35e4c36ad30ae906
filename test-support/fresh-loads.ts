import type { Agent } from './server-harness';

/** tabmcp's own tools, listed beside the page's in every era (docs/mcp-eras.md). */
const CORE_TOOLS = new Set([
  'connect_browser',
  'list_tabs',
  'open_tab',
  'focus_tab',
  'close_tab',
  'handle_dialog',
  'list_page_tools',
  'call_page_tool',
]);

/** The tool names one page gave at each of its fresh loads, and how many loads gave the commonest list. */
export interface FreshLoads {
  url: string;
  loads: number;
  /** Loads whose list is the commonest one: `loads` when the page gives the same list every time. */
  identical: number;
  /** Each distinct list (names sorted as given) with how many loads gave it, commonest first. */
  lists: Array<{ names: string[]; count: number }>;
}

/**
 * Issue 37's bar "the same page gives the same tool list in 20 of 20 fresh loads": opens `url` in a
 * fresh tab `loads` times, reads the page's tool names in the list the agent reads as open_tab
 * answers (the list it sees first), and closes the tab each time.
 */
export async function freshLoads(agent: Agent, url: string, loads: number): Promise<FreshLoads> {
  const counts = new Map<string, number>();
  for (let load = 0; load < loads; load++) {
    await agent.json('open_tab', { url });
    const listed = (await agent.client.listTools()).tools.map((tool) => tool.name);
    const key = JSON.stringify(listed.filter((name) => !CORE_TOOLS.has(name)));
    counts.set(key, (counts.get(key) ?? 0) + 1);
    await agent.call('close_tab', {});
  }
  const lists = [...counts]
    .map(([key, count]) => ({ names: JSON.parse(key) as string[], count }))
    .sort((a, b) => b.count - a.count);
  return { url, loads, identical: lists[0]?.count ?? 0, lists };
}

/** One line per page: "n of N identical", and each list that differs from the commonest by its names. */
export function describeFreshLoads(result: FreshLoads, label: string): string {
  const [common, ...others] = result.lists;
  const differing = others.map((list) => {
    const missing = common?.names.filter((name) => !list.names.includes(name)) ?? [];
    const extra = list.names.filter((name) => !common?.names.includes(name));
    return `${list.count}× without [${missing.join(', ')}] with [${extra.join(', ')}]`;
  });
  return `${label}: ${result.identical} of ${result.loads} identical${differing.length ? ` (${differing.join('; ')})` : ''}`;
}
