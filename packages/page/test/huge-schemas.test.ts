import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpWindowProvider, type PageMcpApi, serveTab, TabClient } from '../src/index';
import { createRealms } from './fake-windows';

/** 5,000 levels: structuredClone and JSON.stringify overflow their stacks on it. */
function deepSchema(): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < 5_000; level++) node = { type: 'object', properties: { inner: node } };
  return node;
}

/** 2^22 values as JSON from 44 objects: cheap to clone, gigabytes to write out. */
function dagSchema(): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < 22; level++) node = { type: 'object', properties: { a: node, b: node } };
  return node;
}

const good = { name: 'good', inputSchema: { type: 'object' as const, properties: {} } };

/** Issue 38: a page tool with a huge schema must not take the page's other tools with it. */
describe('a huge schema leaves out its own tool only', () => {
  it('McpWindowProvider.addTool refuses a 5,000-deep or DAG schema by name; the good tool stays listed', async () => {
    const provider = new McpWindowProvider({ name: 'shop', version: '1' });
    provider.addTool(good, () => 'ok');
    assert.throws(
      () => provider.addTool({ name: 'deep', inputSchema: deepSchema() as never }, () => 'deep'),
      /addTool\(deep\): the definition cannot travel as JSON: it nests deeper than 64 levels/,
    );
    assert.throws(
      () => provider.addTool({ name: 'dag', inputSchema: dagSchema() as never }, () => 'dag'),
      /addTool\(dag\): the definition cannot travel as JSON: it holds more than 50000 values/,
    );
    const { tools } = await provider.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['good'],
    );
  });

  it('serveTab answers tools/list of a hand-written window.mcp with its good tools, and says why in the console', async (t) => {
    const warn = t.mock.method(console, 'warn', () => {});
    const [page] = createRealms('https://shop.example');
    assert.ok(page);
    const api: PageMcpApi = Object.assign(new EventTarget(), {
      listTools: async () => ({
        tools: [good, { name: 'deep', inputSchema: deepSchema() }, { name: 'dag', inputSchema: dagSchema() }],
      }),
      callTool: async () => ({ content: [] }),
    }) as unknown as PageMcpApi;
    const win = page.self as unknown as Window;
    const server = serveTab(api, { window: win });
    const client = new TabClient({ window: win, connectTimeoutMs: 5_000, requestTimeoutMs: 5_000 });
    try {
      await client.connect();
      const listed = (await client.request('tools/list')) as { tools: Array<{ name: string }> };
      assert.deepEqual(
        listed.tools.map((tool) => tool.name),
        ['good'],
      );
      const said = warn.mock.calls.map((call) => String(call.arguments[0])).join('\n');
      assert.match(said, /"deep" is not listed: it nests deeper than 64 levels/);
      assert.match(said, /"dag" is not listed: it holds more than 50000 values/);
    } finally {
      client.close();
      server.close();
    }
  });
});
