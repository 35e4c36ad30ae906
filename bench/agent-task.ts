// Issue 7: one agent task on the demo shop, "find product Teapot, add two to the cart, read the
// total", done through tabmcp and through the MCP servers agents use today, each scripted as an
// agent following that server's tool descriptions would drive it. Per tool: tool calls, wall time
// (median of AGENT_TASK_RUNS fresh runs, from process start to the total read, browser launch
// included) and the bytes the agent had to read (tool lists + every result's text). A run that does
// not reach $68.00 is a failure, not a figure. The floor is the same clicks through playwright-core
// in-process: same browser, no MCP, no agent. Run: npx tsx bench/agent-task.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { chromium } from 'playwright-core';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { chromiumArgs } from '../packages/server/src/launcher/chromium-args';
import { freePort } from '../test-support/net';
import { repoRoot } from '../test-support/paths';
import { textOf } from '../test-support/results';
import { type StdioMcp, startStdioMcp } from '../test-support/stdio-client';
import { startTabmcpProcess } from '../test-support/tabmcp-process';
import { iterations } from './lib/quick';
import { type Figure, machine, ratio, writeResult } from './lib/results';
import { DEVTOOLS_MCP, PLAYWRIGHT_MCP } from './lib/rival-client';
import { median, summarize } from './lib/stats';

const RUNS = Number(process.env.AGENT_TASK_RUNS ?? iterations(5, 1));
const EXPECTED_TOTAL = '$68.00';

/** What the agent sees of one MCP server: every byte it reads and every call it makes. */
class AgentView {
  calls = 0;
  toolListBytes = 0;
  resultBytes = 0;
  readonly transcript: string[] = [];
  constructor(private readonly mcp: StdioMcp) {}

  async listTools(): Promise<string[]> {
    const { tools } = await this.mcp.client.listTools();
    this.toolListBytes += Buffer.byteLength(JSON.stringify(tools));
    return tools.map((tool) => tool.name);
  }

  async call(name: string, args: Record<string, unknown>): Promise<string> {
    this.calls += 1;
    const result = (await this.mcp.client.callTool({ name, arguments: args }, undefined, {
      timeout: 60_000,
    })) as CallToolResult;
    const text = textOf(result);
    this.resultBytes += Buffer.byteLength(text);
    this.transcript.push(`→ ${name} ${JSON.stringify(args)}\n${text}`);
    if (result.isError) throw new Error(`${name} failed: ${text.slice(0, 500)}`);
    return text;
  }
}

function must<T>(value: T | undefined | null, what: string, seen: string): T {
  if (value === undefined || value === null) throw new Error(`the agent could not find ${what} in:\n${seen}`);
  return value;
}

interface Contender {
  key: string;
  label: string;
  command: string;
  start(): Promise<StdioMcp>;
  /** The task as the agent does it; returns the total as the page shows it. */
  task(agent: AgentView, shopUrl: string): Promise<string>;
}

/** A rival from node_modules, in a throwaway cwd where its output files land, kept off the network. */
function rivalStarter(script: string, args: string[]): () => Promise<StdioMcp> {
  return async () => {
    const workDir = mkdtempSync(join(tmpdir(), 'tabmcp-bench-agent-'));
    const mcp = await startStdioMcp({
      args: [join(repoRoot, 'node_modules', script), ...args],
      cwd: workDir,
      env: {
        CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
        CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1',
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
      },
      clientName: 'tabmcp-bench-agent',
    });
    return {
      ...mcp,
      close: async () => {
        await mcp.close();
        rmSync(workDir, { recursive: true, force: true, maxRetries: 3 });
      },
    };
  };
}

const tabmcp: Contender = {
  key: 'tabmcp',
  label: 'tabmcp (page tools of the shop)',
  command: 'node packages/server/dist/tabmcp.js --headless',
  start: async () =>
    startTabmcpProcess({ args: ['--headless', '--port', String(await freePort())], clientName: 'tabmcp-bench-agent' }),
  task: async (agent, shopUrl) => {
    await agent.listTools();
    await agent.call('connect_browser', { launch: true });
    await agent.call('open_tab', { url: shopUrl });
    // The shop's tools arrived with tools/list_changed: the agent reads the list again.
    const names = await agent.listTools();
    if (!names.includes('search_products')) throw new Error(`the shop's tools are not listed: ${names.join(', ')}`);
    const found = JSON.parse(await agent.call('search_products', { query: 'Teapot' })) as {
      products: Array<{ id: string; name: string }>;
    };
    const teapot = must(
      found.products.find((product) => product.name === 'Teapot'),
      'the Teapot',
      JSON.stringify(found),
    );
    await agent.call('add_to_cart', { productId: teapot.id, quantity: 2 });
    const cart = JSON.parse(await agent.call('get_cart', {})) as { total: number };
    return `$${cart.total.toFixed(2)}`;
  },
};

const playwrightArgs = PLAYWRIGHT_MCP.args;
const playwright: Contender = {
  key: 'playwrightMcp',
  label: 'Playwright MCP (snapshot, type, click by ref)',
  command: `node node_modules/@playwright/mcp/cli.js ${playwrightArgs.join(' ')}`,
  start: rivalStarter('@playwright/mcp/cli.js', playwrightArgs),
  task: async (agent, shopUrl) => {
    await agent.listTools();
    // browser_navigate saves its snapshot to a file; browser_snapshot returns it inline.
    await agent.call('browser_navigate', { url: shopUrl });
    const page = await agent.call('browser_snapshot', {});
    const search = must(/textbox "Search"[^\n]*\[ref=(\w+)\]/.exec(page)?.[1], 'the search box', page);
    await agent.call('browser_type', { element: 'Search textbox', target: search, text: 'Teapot' });
    const results = await agent.call('browser_snapshot', {});
    const button = must(
      /text: Teapot \(\$34\.00\)\s*\n\s*- button "Add to cart" \[ref=(\w+)\]/.exec(results)?.[1],
      "the Teapot's Add to cart button",
      results,
    );
    const click = { element: 'Add to cart button of the Teapot', target: button };
    await agent.call('browser_click', click);
    const clicked = await agent.call('browser_click', click);
    const totalIn = (text: string) => /Total:"?\s*\n\s*- strong[^:]*: (\$[\d.,]+)/.exec(text)?.[1];
    // Read the total from the click's answer when it carries a snapshot, else take one.
    if (totalIn(clicked)) return totalIn(clicked) as string;
    const after = await agent.call('browser_snapshot', {});
    return must(totalIn(after), 'the cart total', after);
  },
};

const devtoolsArgs = DEVTOOLS_MCP.args;
const devtools: Contender = {
  key: 'chromeDevtoolsMcp',
  label: 'chrome-devtools-mcp (snapshot, fill, click by uid)',
  command: `node node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js ${devtoolsArgs.join(' ')}`,
  start: rivalStarter('chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js', devtoolsArgs),
  task: async (agent, shopUrl) => {
    await agent.listTools();
    // Every page tool takes a required pageId, which only list_pages tells.
    const pages = await agent.call('list_pages', {});
    const pageId = Number(must(/(\d+):[^\n]*\[selected\]/.exec(pages)?.[1], 'the selected page id', pages));
    await agent.call('navigate_page', { pageId, type: 'url', url: shopUrl });
    const page = await agent.call('take_snapshot', { pageId });
    const search = must(/uid=(\S+) textbox "Search"/.exec(page)?.[1], 'the search box', page);
    const filled = await agent.call('fill', { pageId, uid: search, value: 'Teapot', includeSnapshot: true });
    const button = must(
      /"Teapot \(\$34\.00\) "\s*\n\s*uid=(\S+) button "Add to cart"/.exec(filled)?.[1],
      "the Teapot's Add to cart button",
      filled,
    );
    await agent.call('click', { pageId, uid: button });
    const clicked = await agent.call('click', { pageId, uid: button, includeSnapshot: true });
    return must(/"Total: "\s*\n\s*uid=\S+ "(\$[\d.,]+)"/.exec(clicked)?.[1], 'the cart total', clicked);
  },
};

const contenders = [tabmcp, playwright, devtools];

interface Run {
  wallMs: number;
  startMs: number;
  calls: number;
  toolListBytes: number;
  resultBytes: number;
  total: string;
}

async function runOnce(contender: Contender, shopUrl: string): Promise<Run> {
  const started = performance.now();
  const mcp = await contender.start();
  try {
    const startMs = performance.now() - started;
    const agent = new AgentView(mcp);
    const total = await contender.task(agent, shopUrl).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${mcp.stderr().slice(-1500)}`);
    });
    const wallMs = performance.now() - started;
    if (total !== EXPECTED_TOTAL) {
      throw new Error(`the run ended at a total of ${total}, not ${EXPECTED_TOTAL}:\n${agent.transcript.join('\n')}`);
    }
    // AGENT_TASK_TRANSCRIPT=1 prints what the agent sent and read, to check the script by eye.
    if (process.env.AGENT_TASK_TRANSCRIPT === '1') console.log(agent.transcript.join('\n'));
    const { calls, toolListBytes, resultBytes } = agent;
    return { wallMs, startMs, calls, toolListBytes, resultBytes, total };
  } finally {
    await mcp.close().catch(() => {});
  }
}

/** The floor: the same search and clicks through playwright-core in this process, on the same Chromium. */
async function floorOnce(shopUrl: string): Promise<number> {
  const started = performance.now();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: chromiumArgs(),
  });
  try {
    const page = await browser.newPage();
    await page.goto(shopUrl);
    await page.fill('#query', 'Teapot');
    const add = page.locator('#results li', { hasText: 'Teapot' }).getByRole('button', { name: 'Add to cart' });
    await add.click();
    await add.click();
    const total = await page.textContent('#cart-total');
    if (total !== EXPECTED_TOTAL) throw new Error(`the floor ended at ${total}, not ${EXPECTED_TOTAL}`);
    return performance.now() - started;
  } finally {
    await browser.close();
  }
}

const runs: Record<string, Run[]> = Object.fromEntries(contenders.map((contender) => [contender.key, []]));
const failures: Record<string, string[]> = Object.fromEntries(contenders.map((contender) => [contender.key, []]));
const floorSamples: number[] = [];
let site: ExampleServer | undefined;
try {
  site = await startExampleServer();
  const shopUrl = `${site.url}/shop/`;
  // Interleaved, so that a slow minute of the machine falls on every contender alike.
  for (let index = 0; index < RUNS; index++) {
    floorSamples.push(await floorOnce(shopUrl));
    for (const contender of contenders) {
      try {
        runs[contender.key]?.push(await runOnce(contender, shopUrl));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        failures[contender.key]?.push(reason);
        console.error(`${contender.label}, run ${index + 1} failed: ${reason.slice(0, 2000)}`);
      }
    }
  }
} finally {
  await site?.close();
}

const round = (value: number) => Math.round(value * 10) / 10;
const series: Record<string, unknown> = {
  floor: {
    label: 'floor: the same search and two clicks through playwright-core in-process (launch included, no MCP)',
    ...summarize(floorSamples),
    samples: floorSamples.map(round),
  },
};
const perTool: Record<string, { calls: number; bytesRead: number; toolListBytes: number; wallMsP50: number }> = {};
for (const contender of contenders) {
  const done = runs[contender.key] ?? [];
  const failed = failures[contender.key] ?? [];
  if (done.length === 0) {
    series[contender.key] = { label: contender.label, command: contender.command, error: failed[0] ?? 'no run' };
    continue;
  }
  const wall = done.map((run) => run.wallMs);
  const last = done[done.length - 1] as Run;
  perTool[contender.key] = {
    calls: last.calls,
    bytesRead: last.toolListBytes + last.resultBytes,
    toolListBytes: last.toolListBytes,
    wallMsP50: round(median(wall)),
  };
  series[contender.key] = {
    label: contender.label,
    command: contender.command,
    ...summarize(wall),
    samples: wall.map(round),
    startMsP50: round(median(done.map((run) => run.startMs))),
    toolCalls: last.calls,
    toolListBytes: last.toolListBytes,
    resultBytes: last.resultBytes,
    bytesRead: last.toolListBytes + last.resultBytes,
    failedRuns: failed.length,
    ...(failed.length ? { failures: failed.map((reason) => reason.slice(0, 1000)) } : {}),
  };
}

const base = perTool.tabmcp;
const figures: Figure[] = [];
for (const contender of contenders) {
  const mine = perTool[contender.key];
  if (!mine) continue;
  const rival = contender.key !== 'tabmcp' && base;
  figures.push(
    {
      name: `${contender.label}: tool calls`,
      value: mine.calls,
      unit: 'calls',
      ...(rival ? { beside: { label: 'tabmcp', value: base.calls } } : {}),
      meaning: rival ? `${ratio(mine.calls, base.calls)}× tabmcp's calls for the same task.` : 'Calls the agent made.',
    },
    {
      name: `${contender.label}: bytes the agent read`,
      value: mine.bytesRead,
      unit: 'B',
      ...(rival ? { beside: { label: 'tabmcp', value: base.bytesRead } } : {}),
      meaning: `Tool lists (${mine.toolListBytes} B) and every result's text.${rival ? ` ${ratio(mine.bytesRead, base.bytesRead)}× tabmcp.` : ''}`,
    },
    {
      name: `${contender.label}: wall time p50`,
      value: mine.wallMsP50,
      unit: 'ms',
      beside: rival
        ? { label: 'tabmcp', value: base.wallMsP50 }
        : { label: 'floor (playwright-core, no MCP)', value: round(median(floorSamples)) },
      meaning: rival
        ? `${ratio(mine.wallMsP50, base.wallMsP50)}× tabmcp; process start to the total read, browser launch included.`
        : `${ratio(mine.wallMsP50, median(floorSamples))}× the floor; process start to the total read, browser launch included.`,
    },
  );
}

for (const figure of figures) {
  const beside = figure.beside ? `  (${figure.beside.label}: ${figure.beside.value})` : '';
  console.log(`${figure.name}: ${figure.value} ${figure.unit}${beside}`);
}
console.log(`floor p50: ${round(median(floorSamples))} ms`);

const file = writeResult('agent-task', {
  name: 'agent-task',
  meaning:
    'The task "find product Teapot, add two to the cart, read the total" on examples/shop, scripted as an agent would do it through each MCP server; every run checked to end at $68.00. Wall time from process start to the total read (browser launch included), fresh process per run.',
  machine: machine(),
  runs: RUNS,
  expectedTotal: EXPECTED_TOTAL,
  series,
  figures,
});
console.log(`wrote ${file}`);
if (Object.values(failures).some((failed) => failed.length > 0)) process.exitCode = 1;
