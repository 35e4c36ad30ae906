import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import type { StdioMcp } from './stdio-client';
import { waitFor } from './wait';

/** How many `wait` calls the bench echo page has begun (bench/pages/echo.js counts them). */
const waitsBegun = (page: Page) => page.evaluate(() => (window as Window & { waitsBegun?: number }).waitsBegun ?? 0);

/**
 * Starts `count` calls of the echo page's `wait` tool (answered only after `ms`) and resolves once the page
 * has begun them all, so that a fault strikes while they are in flight: an event to wait for, not a sleep.
 * The calls come back wrapped, because an async function returning a promise would wait for its answer.
 */
export async function waitCallsInFlight(
  tabmcp: Pick<StdioMcp, 'call'>,
  page: Page,
  count: number,
  ms = 2_000,
): Promise<{ calls: Array<Promise<CallToolResult>> }> {
  const before = await waitsBegun(page);
  const calls = Array.from({ length: count }, () => tabmcp.call('wait', { ms }));
  await waitFor(
    async () => (await waitsBegun(page)) >= before + count,
    10_000,
    `${count} wait call(s) to reach the page`,
  );
  return { calls };
}

/** One call of `wait` that the page has begun (see waitCallsInFlight). */
export async function waitCallInFlight(
  tabmcp: Pick<StdioMcp, 'call'>,
  page: Page,
  ms = 2_000,
): Promise<{ call: Promise<CallToolResult> }> {
  const before = await waitsBegun(page);
  const call = tabmcp.call('wait', { ms });
  await waitFor(async () => (await waitsBegun(page)) > before, 10_000, 'the wait call to reach the page');
  return { call };
}
