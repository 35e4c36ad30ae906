// Issue 25: one factual question about a long saved news article (examples/real-world/news-article.html,
// with its site chrome: navigation, share bars with tracking links, icon buttons, comments, sidebar,
// footer), answered through tabmcp and through Playwright MCP, each scripted as an agent would go:
// tabmcp opens the tab and asks get_page_content for the passages that match; Playwright MCP
// navigates (its answer carries the page snapshot). Bytes are UTF-8 of everything the client reads:
// every tool list it is sent (tabmcp: the list at start and the list after the page's tools came)
// and every result. A run counts only when the answer is in what the agent read.
// Bar: tabmcp ≤ 1/3 of Playwright MCP's bytes, in ≤ 3 calls. Run: npx tsx bench/article-question.ts
import { startExampleServer } from '../examples/serve';
import { textOf } from '../test-support/results';
import { type Figure, machine, ratio, writeResult } from './lib/results';
import { startRival } from './lib/rival-client';
import { startBenchTabmcp } from './lib/tabmcp-client';

const PATH = '/real-world/news-article.html';
const QUESTION = 'What did the Harbour Line cost in the end?';
const ANSWER = '412 million euros';
/** What an agent asking the question would search for. */
const QUERY = 'final cost';
const BAR_RATIO = 1 / 3;
const BAR_CALLS = 3;

const bytes = (value: unknown) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');

interface Run {
  calls: number;
  reference?: Record<string, number>;
  bytes: number;
  parts: Record<string, number>;
  answered: boolean;
}

const site = await startExampleServer();
const url = `${site.url}${PATH}`;
let tabmcpRun: Run;
let playwrightRun: Run;

const tabmcp = await startBenchTabmcp(['--launch', '--headless', '--port', '0']);
try {
  const firstList = (await tabmcp.client.listTools()).tools;
  for (let tries = 0; (await tabmcp.call('connect_browser')).isError; tries++) {
    if (tries > 100) throw new Error('the launched browser did not connect');
    await new Promise((done) => setTimeout(done, 100));
  }
  const opened = await tabmcp.call('open_tab', { url });
  const secondList = (await tabmcp.client.listTools()).tools;
  const found = await tabmcp.call('get_page_content', { query: QUERY });
  if (found.isError) throw new Error(`get_page_content: ${textOf(found)}`);
  // For reference, not counted: the whole page, and its main content only, as one read each.
  const whole = await tabmcp.call('get_page_content', { maxChars: 50_000 });
  const main = await tabmcp.call('get_page_content', { main: true, maxChars: 50_000 });
  tabmcpRun = {
    // connect_browser is the session's own start (a launched browser): an agent on a connected browser skips it.
    calls: 2,
    bytes: bytes(firstList) + bytes(opened.content) + bytes(secondList) + bytes(found.content),
    parts: {
      toolListAtStart: bytes(firstList),
      openTab: bytes(opened.content),
      toolListWithPageTools: bytes(secondList),
      pageTools: secondList.length - firstList.length,
      query: bytes(found.content),
    },
    reference: { wholePage: bytes(whole.content), mainContent: bytes(main.content) },
    answered: textOf(found).includes(ANSWER),
  };
} finally {
  await tabmcp.close();
}

const playwright = await startRival('@playwright/mcp/cli.js', [
  '--headless',
  '--isolated',
  '--no-sandbox',
  '--executable-path',
  '/usr/bin/chromium',
]);
try {
  const list = { tools: await playwright.listTools() };
  const navigated = await playwright.call('browser_navigate', { url });
  let calls = 1;
  let read = textOf(navigated);
  let extra = 0;
  if (!read.includes(ANSWER)) {
    // Older Playwright MCP answers navigate without the snapshot: one more call.
    const snapshot = textOf(await playwright.call('browser_snapshot', {}));
    calls++;
    extra = bytes(snapshot);
    read += snapshot;
  }
  playwrightRun = {
    calls,
    bytes: bytes(list.tools) + bytes(navigated.content) + extra,
    parts: { toolList: bytes(list.tools), navigate: bytes(navigated.content), snapshot: extra },
    answered: read.includes(ANSWER),
  };
} finally {
  await playwright.close();
  await site.close();
}

const share = ratio(tabmcpRun.bytes, playwrightRun.bytes);
console.log(`question: ${QUESTION} (answer "${ANSWER}")`);
console.log(
  `tabmcp          ${String(tabmcpRun.bytes).padStart(7)} B in ${tabmcpRun.calls} calls, answered: ${tabmcpRun.answered}  ${JSON.stringify(tabmcpRun.parts)}`,
);
console.log(`  reference, not counted: ${JSON.stringify(tabmcpRun.reference)}`);
console.log(
  `Playwright MCP  ${String(playwrightRun.bytes).padStart(7)} B in ${playwrightRun.calls} calls, answered: ${playwrightRun.answered}  ${JSON.stringify(playwrightRun.parts)}`,
);
console.log(
  `tabmcp / Playwright MCP: ${share}× (bar ≤ ${ratio(1, 3)}×), calls ${tabmcpRun.calls} (bar ≤ ${BAR_CALLS})`,
);
const figures: Figure[] = [
  {
    name: 'Bytes to answer one factual question about a long news article',
    value: tabmcpRun.bytes,
    unit: 'bytes',
    beside: { label: 'Playwright MCP (tool list + navigate with its snapshot)', value: playwrightRun.bytes },
    meaning: `${share}× Playwright MCP's bytes in ${tabmcpRun.calls} calls (it took ${playwrightRun.calls}); both tool lists counted, tabmcp's twice`,
    bar: `≤ ${Math.round(BAR_RATIO * 100)} % of Playwright MCP's bytes, ≤ ${BAR_CALLS} calls`,
  },
];
const file = writeResult('article-question', {
  name: 'article-question',
  meaning: 'UTF-8 bytes and calls to answer one factual question about a saved news article',
  machine: machine(),
  command: 'npx tsx bench/article-question.ts',
  question: QUESTION,
  answer: ANSWER,
  tabmcp: tabmcpRun,
  playwright: playwrightRun,
  ratioTabmcpToPlaywright: share,
  figures,
});
console.log(`wrote ${file}`);
if (!tabmcpRun.answered || !playwrightRun.answered) process.exitCode = 1;
