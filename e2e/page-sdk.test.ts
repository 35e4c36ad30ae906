import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { chromiumArgs } from '../packages/server/src/launcher/chromium-args';
import { repoRoot } from '../test-support/harness';

/**
 * The page SDK in real Chromium, without the extension: same-window use, a cross-origin iframe in
 * both directions (127.0.0.1 and localhost on different ports are different origins), an origin
 * that is not allowed, notifications, docs/requirements.md#page-sdk's example, and MCP-B's TabClientTransport with
 * the MCP SDK client against our tab server. Browser-side code is passed as strings so it runs as
 * written.
 */
async function bundle(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: repoRoot, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'error',
  });
  return result.outputFiles[0]?.text ?? '';
}

describe('page SDK in real Chromium', () => {
  let siteA: ExampleServer;
  let siteB: ExampleServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    siteA = await startExampleServer(0, '127.0.0.1');
    siteB = await startExampleServer(0, 'localhost');
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs() });
  });

  after(async () => {
    await browser?.close();
    await siteA?.close();
    await siteB?.close();
  });

  async function freshPage(): Promise<Page> {
    await page?.close();
    page = await browser.newPage();
    await page.goto(`${siteA.url}/page-sdk/`);
    return page;
  }

  async function withIframe(): Promise<Frame> {
    const origin = siteB.url.replace('127.0.0.1', 'localhost');
    await page.evaluate(`new Promise((resolve) => {
      const frame = document.createElement('iframe');
      frame.id = 'child';
      frame.src = ${JSON.stringify(`${origin}/page-sdk/`)};
      frame.onload = resolve;
      document.body.append(frame);
    })`);
    const frame = page.frames().find((f) => f.url().startsWith(origin));
    assert.ok(frame, 'the cross-origin iframe loaded');
    await frame.waitForFunction('!!window.TabMcp');
    return frame;
  }

  /** Defines window.makeShop() in a frame: a provider whose add_to_cart leaves a trace in window.calls. */
  const SHOP = `
    window.calls = [];
    window.makeShop = () => {
      const mcp = new TabMcp.McpWindowProvider({ name: 'shop', version: '1.0.0' });
      mcp.addTool(
        { name: 'add_to_cart', description: 'Adds a product',
          inputSchema: { type: 'object', properties: { id: { type: 'string' }, qty: { type: 'integer', minimum: 1 } }, required: ['id'] },
          outputSchema: { type: 'object', properties: { items: { type: 'integer' } }, required: ['items'] } },
        ({ id, qty = 1 }) => { window.calls.push(id + 'x' + qty); return { items: window.calls.length }; });
      mcp.addResource({ uri: 'shop://cart', name: 'Cart' }, (uri) => ({ contents: [{ uri, text: window.calls.join(',') }] }));
      mcp.addResourceTemplate({ uriTemplate: 'shop://product/{id}', name: 'Product' }, (uri, v) => ({ contents: [{ uri, text: 'product ' + v.id }] }));
      mcp.addPrompt({ name: 'suggest', arguments: [{ name: 'budget', required: true }] },
        (a) => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Suggest under ' + a.budget } }] }));
      return mcp;
    };`;

  it('same window: provider and client, validation, resources, prompts, coalesced notifications', async () => {
    await freshPage();
    await page.evaluate(SHOP);
    const result = await page.evaluate(`(async () => {
      const shop = makeShop().exposeOnWindow('shopTools');
      await new Promise((r) => setTimeout(r, 0)); // the provider flushes its set-up notifications a task later
      const client = new TabMcp.McpWindowClient({ namespace: 'shopTools' });
      await client.connect();
      const events = [];
      client.onNotification((detail) => events.push(detail));
      const ok = await client.callTool('add_to_cart', { id: 'p1', qty: 2 });
      const bad = await client.callTool('add_to_cart', { qty: 0 });
      const cart = await client.readResource('shop://cart');
      const product = await client.readResource('shop://product/p9');
      const prompt = await client.getPrompt('suggest', { budget: '20' });
      for (let i = 0; i < 50; i++) shop.addTool({ name: 'bulk' + i }, () => 'ok');
      // Notifications arrive in order: once the resource's has come, every tools one before it has too.
      const updated = new Promise((resolve, reject) => {
        const stop = client.onNotification((d) => { if (d.type === 'resourceUpdated') { stop(); resolve(); } });
        setTimeout(() => reject(new Error('no resourceUpdated notification within 5 s')), 5000);
      });
      shop.resourceUpdated('shop://cart');
      await updated;
      const afterBulk = events.findIndex((e) => e.type === 'resourceUpdated');
      return { info: await client.getServerInfo(), ok, bad, cart, product, prompt, afterBulk, events,
        tools: (await client.listTools()).tools.length, calls: window.calls };
    })()`);
    const r = result as Record<string, unknown> & {
      ok: { structuredContent: unknown; isError?: boolean };
      bad: { isError: boolean; content: Array<{ text: string }> };
      cart: { contents: Array<{ text: string }> };
      product: { contents: Array<{ text: string }> };
      prompt: { messages: Array<{ content: { text: string } }> };
      events: unknown[];
    };
    assert.deepEqual(r.info, { name: 'shop', version: '1.0.0' });
    assert.deepEqual(r.ok.structuredContent, { items: 1 });
    assert.equal(r.bad.isError, true);
    assert.match(r.bad.content[0]?.text ?? '', /arguments\.id: required; arguments\.qty: expected a number >= 1/);
    assert.deepEqual(r.calls, ['p1x2'], 'the invalid call never reached the handler');
    assert.equal(r.cart.contents[0]?.text, 'p1x2');
    assert.equal(r.product.contents[0]?.text, 'product p9');
    assert.equal(r.prompt.messages[0]?.content.text, 'Suggest under 20');
    assert.equal(r.afterBulk, 1, '50 registrations in one task give one notification');
    assert.deepEqual(r.events, [{ type: 'toolsListChanged' }, { type: 'resourceUpdated', uri: 'shop://cart' }]);
    assert.equal(r.tools, 51);
  });

  it("runs docs/requirements.md#page-sdk's Example Usage (provider with zod, client) as written", async () => {
    await freshPage();
    await page.addScriptTag({ content: await bundle("import { z } from 'zod'; (window as any).z = z;") });
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
    const result = await page.evaluate(`(async () => {
      const { McpWindowProviderSDK, McpWindowClientSDK } = TabMcp;
      const myPageProvider = new McpWindowProviderSDK({ name: 'MyWebApp', version: '0.1' }, { resources: true, tools: true });
      myPageProvider.addResource({ uri: 'page-data://current-url', name: 'Current URL' }, async () => ({
        contents: [{ uri: 'page-data://current-url', text: window.location.href }],
      }));
      myPageProvider.addTool(
        { name: 'showAlert', description: 'Shows a browser alert', inputSchemaDef: { message: z.string() } },
        async (args) => { alert(args.message); return { content: [{ type: 'text', text: 'Alert shown.' }] }; });
      myPageProvider.exposeOnWindow();

      const mcpClient = new McpWindowClientSDK();
      await mcpClient.connect();
      const tools = await mcpClient.listTools();
      let shown;
      if (tools.tools.some((t) => t.name === 'showAlert')) {
        shown = await mcpClient.callTool('showAlert', { message: 'Hello from the LLM!' });
      }
      const url = await mcpClient.readResource({ uri: 'page-data://current-url' });
      return { shown, url: url.contents[0].text, capabilities: await mcpClient.getCapabilities() };
    })()`);
    const r = result as { shown: { content: Array<{ text: string }> }; url: string; capabilities: object };
    assert.equal(r.shown.content[0]?.text, 'Alert shown.');
    assert.deepEqual(alerts, ['Hello from the LLM!']);
    assert.equal(r.url, `${siteA.url}/page-sdk/`);
    assert.deepEqual(Object.keys(r.capabilities).sort(), ['resources', 'tools'], 'prompts off, as asked');
  });

  it('cross-origin: the parent calls a provider in an iframe of another origin', async () => {
    await freshPage();
    const child = await withIframe();
    const childOrigin = new URL(child.url()).origin;
    await child.evaluate(SHOP);
    await child.evaluate(`(async () => {
      window.shop = makeShop();
      await new Promise((r) => setTimeout(r, 0)); // the provider flushes its set-up notifications a task later
      window.server = TabMcp.serveWindow(window.shop, { allowedOrigins: [${JSON.stringify(siteA.url)}] });
    })()`);
    const result = await page.evaluate(`(async () => {
      const client = new TabMcp.McpWindowClient({
        target: document.getElementById('child'), allowedOrigins: [${JSON.stringify(childOrigin)}] });
      await client.connect();
      window.remote = client;
      window.remoteEvents = [];
      client.onNotification((detail) => window.remoteEvents.push(detail));
      const called = await client.callTool('add_to_cart', { id: 'p7' });
      const templates = (await client.listResources()).resourceTemplates.map((t) => t.uriTemplate);
      return { info: await client.getServerInfo(), called, templates };
    })()`);
    const r = result as { info: { name: string }; called: { structuredContent: unknown }; templates: string[] };
    assert.equal(r.info.name, 'shop');
    assert.deepEqual(r.called.structuredContent, { items: 1 });
    assert.deepEqual(r.templates, ['shop://product/{id}']);
    assert.deepEqual(await child.evaluate('window.calls'), ['p7x1'], 'the tool ran in the iframe');
    await child.evaluate(
      `window.shop.addTool({ name: 'late' }, () => 'late'); window.shop.resourceUpdated('shop://cart');`,
    );
    await page.waitForFunction('window.remoteEvents.length >= 2');
    assert.deepEqual(await page.evaluate('window.remoteEvents'), [
      { type: 'toolsListChanged' },
      { type: 'resourceUpdated', uri: 'shop://cart' },
    ]);
  });

  it('cross-origin: the iframe calls a provider in its parent', async () => {
    await freshPage();
    const child = await withIframe();
    const childOrigin = new URL(child.url()).origin;
    await page.evaluate(SHOP);
    await page.evaluate(
      `window.server = TabMcp.serveWindow(makeShop(), { allowedOrigins: [${JSON.stringify(childOrigin)}] });`,
    );
    const result = await child.evaluate(`(async () => {
      const client = new TabMcp.McpWindowClient({ target: 'parent', allowedOrigins: [${JSON.stringify(siteA.url)}] });
      await client.connect();
      const listed = await client.listTools();
      const called = await client.callTool('add_to_cart', { id: 'p2', qty: 3 });
      const prompt = await client.getPrompt('suggest', { budget: '5' });
      return { names: listed.tools.map((t) => t.name), called, prompt: prompt.messages[0].content.text };
    })()`);
    const r = result as { names: string[]; called: { structuredContent: unknown }; prompt: string };
    assert.deepEqual(r.names, ['add_to_cart']);
    assert.deepEqual(r.called.structuredContent, { items: 1 });
    assert.equal(r.prompt, 'Suggest under 5');
    assert.deepEqual(await page.evaluate('window.calls'), ['p2x3']);
  });

  it('an origin that is not allowed is refused: nothing runs and the client is told why', async () => {
    await freshPage();
    const child = await withIframe();
    const childOrigin = new URL(child.url()).origin;
    await child.evaluate(SHOP);
    await child.evaluate(`window.refused = [];
      window.server = TabMcp.serveWindow(makeShop(), {
        allowedOrigins: ['https://assistant.example'], onRefused: (origin) => window.refused.push(origin) });`);
    const error = await page.evaluate(`(async () => {
      const client = new TabMcp.McpWindowClient({ target: document.getElementById('child'),
        allowedOrigins: [${JSON.stringify(childOrigin)}], connectTimeoutMs: 600 });
      try { await client.connect(); return 'connected'; } catch (error) { return error.message; }
    })()`);
    assert.match(String(error), /No MCP provider answered from .* allow this origin \(http:\/\/127\.0\.0\.1:\d+\)/);
    // A raw tools/call straight at the iframe, skipping the handshake, runs nothing either.
    await page.evaluate(`document.getElementById('child').contentWindow.postMessage({ channel: 'mcp-iframe', type: 'mcp',
      direction: 'client-to-server', payload: { jsonrpc: '2.0', id: 1, method: 'tools/call',
      params: { name: 'add_to_cart', arguments: { id: 'evil' } } } }, ${JSON.stringify(childOrigin)});`);
    await child.waitForFunction('window.refused.length >= 2');
    assert.deepEqual(await child.evaluate('window.calls'), []);
    assert.ok(((await child.evaluate('window.refused')) as string[]).every((origin) => origin === siteA.url));
  });

  it("MCP-B's TabClientTransport with the MCP SDK client lists and calls our page's tools", async () => {
    await freshPage();
    await page.evaluate(SHOP);
    await page.evaluate('window.server = TabMcp.serveTab(makeShop());');
    const client = await bundle(`
      import { TabClientTransport } from '@mcp-b/transports';
      import { Client } from '@modelcontextprotocol/sdk/client/index.js';
      import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
      (window as any).runMcpbClient = async () => {
        const client = new Client({ name: 'mcp-b-interop', version: '1.0.0' });
        let changed = 0;
        client.setNotificationHandler(ToolListChangedNotificationSchema, async () => { changed += 1; });
        await client.connect(new TabClientTransport({ targetOrigin: location.origin }));
        const tools = await client.listTools();
        const called = await client.callTool({ name: 'add_to_cart', arguments: { id: 'mcpb', qty: 2 } });
        const invalid = await client.callTool({ name: 'add_to_cart', arguments: { id: 5 } });
        const cart = await client.readResource({ uri: 'shop://cart' });
        (window as any).shopServerChange = () => changed;
        await client.close();
        return { server: client.getServerVersion(), tools: tools.tools, called, invalid, cart };
      };`);
    await page.addScriptTag({ content: client });
    const result = (await page.evaluate('runMcpbClient()')) as {
      server: { name: string };
      tools: Array<{ name: string; outputSchema?: unknown }>;
      called: { structuredContent: unknown };
      invalid: { isError: boolean; content: Array<{ text: string }> };
      cart: { contents: Array<{ text: string }> };
    };
    assert.equal(result.server.name, 'shop');
    assert.deepEqual(
      result.tools.map((tool) => tool.name),
      ['add_to_cart'],
    );
    assert.ok(result.tools[0]?.outputSchema, 'output schema passes through');
    assert.deepEqual(result.called.structuredContent, { items: 1 });
    assert.equal(result.invalid.isError, true);
    assert.match(result.invalid.content[0]?.text ?? '', /arguments\.id: expected string, got integer/);
    assert.equal(result.cart.contents[0]?.text, 'mcpbx2');
  });
});
