// Issue 6: a page tool called by the MCP SDK client through `tabmcp --proxy` (stdio → tabmcp →
// WebSocket → proxy → WebSocket → extension worker → Port → content script → page → back), beside
// its floor in the same run: the same page tool called by a bare proxy-protocol client
// (callPageTool straight to the proxy, no MCP server in front). Loopback, one browser, one proxy.
// Run: node scripts/build.mjs && npx tsx bench/remote-page-tool.ts
import { silentLogger, startProxy } from '@tabmcp/proxy';
import { SECRET, tokenFor } from '../test-support/proxy/fixtures';
import { launchProxyBrowser, RawProxyClient, startProxyTabmcp, startTestSite } from '../test-support/proxy-harness';
import { iterations } from './lib/quick';
import { machine, ratio, writeResult } from './lib/results';
import { formatRow, summarize, timeEach } from './lib/stats';

const CALLS = Number(process.env.BENCH_CALLS ?? iterations(500, 20));
const WARMUP = iterations(100, 5);
const BLOCK = iterations(50, 10);
const NAME = 'Bench Chromium';

const site = await startTestSite();
const proxy = await startProxy({ port: 0, auth: { secret: SECRET }, logger: silentLogger });
const token = await tokenFor('bench');
const browser = await launchProxyBrowser({ proxyUrl: proxy.url, proxyToken: token, browserName: NAME });
const tabmcp = await startProxyTabmcp(proxy.url, token, ['--browser-name', NAME]);
const viaTabmcp: number[] = [];
const floor: number[] = [];
try {
  for (let tries = 0; (await tabmcp.call('connect_browser')).isError; tries++)
    if (tries > 20) throw new Error('the browser did not reach the proxy');
  const opened = await tabmcp.call('open_tab', { url: `${site.url}/shop/` });
  if (opened.isError) throw new Error(JSON.stringify(opened.content));
  const raw = await RawProxyClient.connect(proxy.url, token, NAME);
  const tabs = await raw.result<{ tabs: Array<{ id: number; url: string }> }>('getTabs', {});
  const tabId = tabs.tabs.find((tab) => tab.url === `${site.url}/shop/`)?.id;
  // An error answer is fast and would pass for a good figure: measured calls must succeed.
  const mcpCall = async () => {
    const result = await tabmcp.call('search_products', { query: 'mug' });
    if (result.isError) throw new Error(`search_products failed: ${JSON.stringify(result.content)}`);
  };
  const rawCall = () => raw.result('callPageTool', { tabId, name: 'search_products', arguments: { query: 'mug' } });
  await timeEach(WARMUP, mcpCall);
  await timeEach(WARMUP, rawCall);
  for (let done = 0; done < CALLS; done += BLOCK) {
    viaTabmcp.push(...(await timeEach(BLOCK, mcpCall)));
    floor.push(...(await timeEach(BLOCK, rawCall)));
  }
  raw.close();
} finally {
  await tabmcp.close();
  await browser.close();
  await proxy.close();
  await site.close();
}

const remote = summarize(viaTabmcp);
const bare = summarize(floor);
console.log(formatRow('page tool via tabmcp --proxy (MCP SDK client, stdio)', remote));
console.log(formatRow('floor: callPageTool by a bare proxy client', bare));
console.log(`p50 ratio ${ratio(remote.p50, bare.p50)}×, added p50 ${(remote.p50 - bare.p50).toFixed(3)} ms`);
const file = writeResult('remote-page-tool', {
  machine: machine(),
  calls: CALLS,
  viaTabmcpProxy: remote,
  floorBareProxyClient: bare,
  p50Ratio: ratio(remote.p50, bare.p50),
  addedP50Ms: Math.round((remote.p50 - bare.p50) * 1000) / 1000,
});
console.log(`wrote ${file}`);
