// Issue 5: what an agent must read to act on a page. tabmcp: the tool list (core + the page's
// DOM-derived or published tools) plus get_page_content; Playwright MCP: its tool list plus
// browser_snapshot of the same page. The floor, measured in the same run, is the page's visible
// text (document.body.innerText). Sizes are UTF-8 bytes of the text the client receives; they do
// not vary from run to run. Run: npx tsx bench/dom-snapshot-size.ts

import { startExampleServer } from '../examples/serve';
import { textOf } from '../test-support/results';
import { type Figure, machine, ratio, writeResult } from './lib/results';
import { startRival } from './lib/rival-client';
import { startBenchTabmcp } from './lib/tabmcp-client';

const PAGES = [
  { path: '/farefinder/', label: 'FareFinder demo (form, no SDK)' },
  { path: '/plain/', label: 'plain HTML contact page (no SDK)' },
  { path: '/shop/', label: 'demo shop (page SDK tools)' },
  { path: '/real-world/underscore.html', label: 'underscorejs.org home page (174 KB HTML)' },
  { path: '/real-world/rust-hashmap.html', label: 'doc.rust-lang.org HashMap page (192 KB HTML)' },
];

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

interface Row {
  page: string;
  url: string;
  floorTextBytes: number;
  tabmcp: {
    toolListBytes: number;
    pageToolCount: number;
    contentBytes: number;
    firstContentPageBytes: number;
    total: number;
  };
  playwright: { toolListBytes: number; snapshotBytes: number; total: number };
  ratioPlaywrightToTabmcp: number;
  ratioTabmcpToFloor: number;
}

const site = await startExampleServer();
const tabmcp = await startBenchTabmcp(['--launch', '--headless', '--port', '0']);
const playwright = await startRival('@playwright/mcp/cli.js', [
  '--headless',
  '--isolated',
  '--no-sandbox',
  '--executable-path',
  '/usr/bin/chromium',
]);
const rows: Row[] = [];
try {
  for (let tries = 0; (await tabmcp.call('connect_browser')).isError; tries++) {
    if (tries > 100) throw new Error('the launched browser did not connect');
    await new Promise((done) => setTimeout(done, 100));
  }
  const playwrightTools = bytes(JSON.stringify(await playwright.listTools()));
  for (const { path, label } of PAGES) {
    const url = `${site.url}${path}`;
    await tabmcp.call('open_tab', { url });
    const tools = (await tabmcp.client.listTools()).tools;
    const hasContentTool = tools.some((tool) => tool.name === 'get_page_content');
    let content = '';
    let firstPage = 0;
    if (hasContentTool) {
      // Every page of the content, as an agent reading all of it would fetch it: the text of each
      // (Markdown under a title line) ends its paging note with where to continue.
      for (let offset: number | undefined = 0; offset !== undefined; ) {
        const result = await tabmcp.call('get_page_content', { offset, maxChars: 50_000 });
        if (result.isError) throw new Error(`get_page_content on ${path}: ${textOf(result)}`);
        const text = textOf(result);
        content += text;
        const next = /continue with offset (\d+)\)/.exec(text)?.[1];
        if (next !== undefined && Number(next) <= offset)
          throw new Error(`get_page_content did not advance past offset ${offset} on ${path}`);
        offset = next === undefined ? undefined : Number(next);
      }
      firstPage = bytes(textOf(await tabmcp.call('get_page_content')));
    }
    await playwright.call('browser_navigate', { url });
    const snapshot = textOf(await playwright.call('browser_snapshot', {}));
    const floor = textOf(await playwright.call('browser_evaluate', { function: '() => document.body.innerText' }));
    const toolListBytes = bytes(JSON.stringify(tools));
    const tabmcpTotal = toolListBytes + bytes(content);
    const playwrightTotal = playwrightTools + bytes(snapshot);
    const floorBytes = bytes(
      JSON.parse(/```json\n([\s\S]*?)\n```/.exec(floor)?.[1] ?? JSON.stringify(floor)) as string,
    );
    rows.push({
      page: label,
      url: path,
      floorTextBytes: floorBytes,
      tabmcp: {
        toolListBytes,
        pageToolCount: tools.length - 4,
        contentBytes: bytes(content),
        firstContentPageBytes: firstPage,
        total: tabmcpTotal,
      },
      playwright: { toolListBytes: playwrightTools, snapshotBytes: bytes(snapshot), total: playwrightTotal },
      ratioPlaywrightToTabmcp: ratio(playwrightTotal, tabmcpTotal),
      ratioTabmcpToFloor: ratio(tabmcpTotal, floorBytes),
    });
    await tabmcp.call('close_tab');
  }
} finally {
  await playwright.close();
  await tabmcp.close();
  await site.close();
}

console.log(
  'bytes an agent reads per page: tabmcp (tool list + all page content) vs Playwright MCP (tool list + browser_snapshot); floor = visible text',
);
for (const row of rows) {
  console.log(
    `${row.page.padEnd(46)} floor ${String(row.floorTextBytes).padStart(7)}  tabmcp ${String(row.tabmcp.total).padStart(7)} (${row.ratioTabmcpToFloor}× floor; tools ${row.tabmcp.toolListBytes}, first content page ${row.tabmcp.firstContentPageBytes})  playwright ${String(row.playwright.total).padStart(7)} (snapshot ${row.playwright.snapshotBytes})  playwright/tabmcp ${row.ratioPlaywrightToTabmcp}×`,
  );
}
const ratios = rows.map((row) => row.ratioPlaywrightToTabmcp).sort((a, b) => a - b);
const median = ratios[Math.floor(ratios.length / 2)] ?? 0;
console.log(`median Playwright MCP / tabmcp: ${median}×`);
const largest = rows.at(-1);
const figures: Figure[] = largest
  ? [
      {
        name: 'Bytes to read the large real-world page (rust HashMap docs)',
        value: largest.tabmcp.total,
        unit: 'bytes',
        beside: { label: 'Playwright MCP tool list + browser_snapshot', value: largest.playwright.total },
        meaning: 'tool list plus every page of get_page_content, against the rival on the same saved page',
      },
    ]
  : [];
const file = writeResult('dom-snapshot-size', {
  name: 'dom-snapshot-size',
  meaning:
    'UTF-8 bytes an agent reads to act on a page: tabmcp tool list + get_page_content vs Playwright MCP tool list + browser_snapshot; floor = document.body.innerText',
  machine: machine(),
  command: 'npx tsx bench/dom-snapshot-size.ts',
  medianRatioPlaywrightToTabmcp: median,
  pages: rows,
  figures,
});
console.log(`wrote ${file}`);
