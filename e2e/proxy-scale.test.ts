import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { freePort, textOf, waitFor } from '../test-support/harness';
import { tokenFor } from '../test-support/proxy/fixtures';
import { type RedisProcess, startRedis } from '../test-support/proxy/processes';
import {
  callUntilOk,
  launchProxyBrowser,
  openTabWithTool,
  type ProxyBrowser,
  type ProxyInstance,
  type ProxyTabmcp,
  RawProxyClient,
  spawnProxyInstance,
  startProxyTabmcp,
  startTestSite,
  type TestSite,
} from '../test-support/proxy-harness';

const BROWSER = 'Scaled Chromium';

/**
 * Two proxy instances on a real redis-server: the browser on instance A, the agent on instance B.
 * Then the faults of a deployment: Redis restarted, each instance killed and started again.
 */
describe('proxy mode across two proxy instances on Redis', () => {
  let site: TestSite;
  let redis: RedisProcess;
  let portA: number;
  let portB: number;
  let proxyA: ProxyInstance;
  let proxyB: ProxyInstance;
  let browser: ProxyBrowser;
  let tabmcp: ProxyTabmcp;
  let token: string;
  let tokenDir: string | undefined;

  const instance = (port: number) => spawnProxyInstance(port, ['--redis', redis.url, '--heartbeat-ms', '300']);

  before(async () => {
    site = await startTestSite();
    redis = await startRedis();
    [portA, portB] = [await freePort(), await freePort()];
    [proxyA, proxyB] = await Promise.all([instance(portA), instance(portB)]);
    token = await tokenFor('user-scale');
    browser = await launchProxyBrowser({ proxyUrl: proxyA.url, proxyToken: token, browserName: BROWSER });
    // The agent reads its token from a file (again at every reconnect below).
    tokenDir = mkdtempSync(join(tmpdir(), 'tabmcp-token-'));
    writeFileSync(join(tokenDir, 'agent.jwt'), `${token}\n`);
    tabmcp = await startProxyTabmcp(proxyB.url, 'unused', [
      '--token-file',
      join(tokenDir, 'agent.jwt'),
      '--browser-name',
      BROWSER,
    ]);
  });

  afterEach((context) => {
    // A failure across processes is only understood with the instances' logs.
    if ((context as { passed?: boolean }).passed === false)
      for (const [name, instance] of [
        ['A', proxyA],
        ['B', proxyB],
      ] as const)
        console.error(`--- proxy ${name} log (tail) ---\n${instance?.logs().slice(-4_000)}`);
  });

  after(async () => {
    await tabmcp?.close();
    await browser?.close();
    await Promise.all([proxyA?.stop(), proxyB?.stop()]);
    await redis?.stop();
    await site?.close();
    if (tokenDir) rmSync(tokenDir, { recursive: true, force: true });
  });

  it('a page tool, createTab, click and screenshot work with the browser and the agent on different instances', async () => {
    assert.notEqual(proxyA.port, proxyB.port);
    const connected = await callUntilOk(tabmcp, 'connect_browser', {}, 15_000);
    assert.match(textOf(connected), /"connected": ?true/);
    await openTabWithTool(tabmcp, `${site.url}/shop/`, 'add_to_cart');
    const added = await tabmcp.call('add_to_cart', { productId: 'p2' });
    assert.equal((added.structuredContent as { total: number }).total, 11);

    const raw = await RawProxyClient.connect(proxyB.url, token, BROWSER);
    try {
      const { tabId } = await raw.result<{ tabId: number }>('createTab', { url: `${site.url}/shop/` });
      await raw.result('click', { tabId, selector: '#results li button' });
      const cart = await raw.result<{ structuredContent: { total: number } }>('callPageTool', {
        tabId,
        name: 'get_cart',
      });
      assert.equal(cart.structuredContent.total, 12.5);
      const shot = await raw.result<{ data: string }>('screenshot', { tabId, format: 'jpeg', quality: 50 });
      assert.deepEqual([...Buffer.from(shot.data, 'base64').subarray(0, 2)], [0xff, 0xd8]);
      await raw.result('closeTab', { tabId });
    } finally {
      raw.close();
    }
  });

  it('Redis restarted: calls fail fast with a clear error while it is away, and work again after', async () => {
    const leaving = await RawProxyClient.connect(proxyB.url, token, BROWSER);
    await redis.stop();
    const during = await tabmcp.call('get_cart');
    // Cross-instance calls fail at once while Redis is away (no queue); the answer says why.
    assert.equal(during.isError, true);
    assert.match(textOf(during), /get_cart.*through the proxy.*unreachable/);
    // A client leaving now makes its instance tell the other one, which fails: the instance stays up.
    leaving.close();
    await waitFor(async () => (await healthOf(portB)).counts.mcpClients === 1, 10_000, 'the client to be gone');
    assert.equal((await healthOf(portB)).status, 'degraded');
    await redis.start();
    const cart = await callUntilOk(tabmcp, 'get_cart', {}, 20_000);
    assert.equal((cart.structuredContent as { total: number }).total, 11);
  });

  it('the instance holding the browser is killed: the call in flight fails clearly, all recovers when it is back', async () => {
    await openTabWithTool(tabmcp, site.slowUrl, 'wait_forever');
    const pending = tabmcp.call('wait_forever');
    await callInFlight(portB);
    await proxyA.kill();
    const failed = await pending;
    assert.equal(failed.isError, true);
    assert.match(textOf(failed), /disconnected|gone|dropped/i);
    proxyA = await instance(portA);
    // The extension dials A again, then the agent's side finds the browser by name and reconnects.
    await callUntilOk(tabmcp, 'list_tabs', {}, 30_000);
    const reopened = await callUntilOk(tabmcp, 'focus_tab', { tabId: await tabIdOf(tabmcp, site.slowUrl) }, 10_000);
    assert.notEqual(reopened.isError, true);
    const pong = await tabmcp.call('ping');
    assert.match(textOf(pong), /"pong":\s*true/);
  });

  it('the instance holding the agent is killed: the call in flight fails clearly, the agent reconnects', async () => {
    const pending = tabmcp.call('wait_forever');
    await callInFlight(portB);
    await proxyB.kill();
    const failed = await pending;
    assert.equal(failed.isError, true);
    assert.match(textOf(failed), /dropped|gone|disconnected/i);
    proxyB = await instance(portB);
    await callUntilOk(tabmcp, 'list_tabs', {}, 30_000);
    await callUntilOk(tabmcp, 'focus_tab', { tabId: await tabIdOf(tabmcp, site.slowUrl) }, 10_000);
    const pong = await tabmcp.call('ping');
    assert.match(textOf(pong), /"pong":\s*true/);
  });
});

async function tabIdOf(tabmcp: ProxyTabmcp, url: string): Promise<number> {
  return waitFor(
    async () => {
      const result = await tabmcp.call('list_tabs');
      if (result.isError) return undefined;
      const tabs = (JSON.parse(textOf(result)) as { tabs: Array<{ id: number; url: string }> }).tabs;
      return tabs.find((tab) => tab.url === url)?.id;
    },
    10_000,
    `a tab with ${url}`,
  );
}

async function healthOf(port: number): Promise<{ status: string; counts: { inFlight: number; mcpClients: number } }> {
  return (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
    status: string;
    counts: { inFlight: number; mcpClients: number };
  };
}

/** Waits until the agent's instance has a call in flight beside the getTabs long poll. */
async function callInFlight(port: number): Promise<void> {
  await waitFor(
    async () => (await healthOf(port)).counts.inFlight >= 2,
    10_000,
    'the call to be in flight at the proxy',
  );
}
