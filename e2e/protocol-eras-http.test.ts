import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { httpTabmcpForTests } from '../test-support/http-tabmcp';
import { waitFor } from '../test-support/wait';

type Mode = 'auto' | { pin: '2026-07-28' };

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/**
 * `tabmcp --http` to 2.x clients. 2026-07-28 over HTTP is stateless, so modern clients share the
 * `all` view: page tools under hub names, callable without focus (docs/mcp-eras.md).
 */
describe('2.x clients over HTTP, pinned to 2026-07-28 and in auto mode', () => {
  const served = httpTabmcpForTests<ExampleServer, Client>(startExampleServer);

  async function connect(mode: Mode, listen: boolean): Promise<{ client: Client; changes: () => number }> {
    const client = new Client({ name: 'tabmcp-e2e-modern-http', version: '1.0.0' }, { versionNegotiation: { mode } });
    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes += 1;
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(served.url), {
        requestInit: { headers: { authorization: served.authorization } },
      }),
    );
    served.clients.push(client);
    if (listen) await client.listen({ toolsListChanged: true });
    return { client, changes: () => changes };
  }

  const names = async (client: Client) =>
    (await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((tool) => tool.name);
  const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
    (result as { content: Array<{ text?: string }> }).content.map((block) => block.text ?? '').join('\n');

  it('a pinned client opens a tab, hears the page tools on its listen stream and calls one by hub name', async () => {
    const { client, changes } = await connect({ pin: '2026-07-28' }, true);
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    await waitFor(
      async () => (await client.callTool({ name: 'connect_browser', arguments: {} })).isError !== true,
      20_000,
      'the launched browser',
    );
    const before = changes();
    const opened = await client.callTool({ name: 'open_tab', arguments: { url: `${served.site.url}/farefinder/` } });
    assert.notEqual(opened.isError, true, textOf(opened));
    await waitFor(async () => changes() > before, 10_000, 'list_changed on the listen stream');
    const hubName = await waitFor(
      async () => (await names(client)).find((name) => name.endsWith('_search_flights')),
      10_000,
      'the page tool under its hub name',
    );
    const found = await client.callTool({
      name: hubName,
      arguments: { from: 'SFO', to: 'NYC', departDate: '2024-01-19' },
    });
    assert.notEqual(found.isError, true, textOf(found));
    assert.match(textOf(found), /\$520/);
  });

  it('an auto-mode client lands on 2026-07-28, hears of a new tab on its listen stream and calls its tool', async () => {
    const { client, changes } = await connect('auto', true);
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.ok((await names(client)).some((name) => name.endsWith('_search_flights')));
    const before = changes();
    const opened = await client.callTool({ name: 'open_tab', arguments: { url: `${served.site.url}/shop/` } });
    assert.notEqual(opened.isError, true, textOf(opened));
    await waitFor(async () => changes() > before, 10_000, 'list_changed on the listen stream');
    const hubName = await waitFor(
      async () => (await names(client)).find((name) => name.endsWith('_search_products')),
      10_000,
      'the shop tool under its hub name',
    );
    const found = await client.callTool({ name: hubName, arguments: { query: 'mug' } });
    assert.notEqual(found.isError, true, textOf(found));
    assert.match(textOf(found), /Blue Mug/);
  });

  it('a client that does not subscribe gets the fallback tools, while other clients listen', async () => {
    const { client } = await connect({ pin: '2026-07-28' }, false);
    const listed = await names(client);
    assert.ok(listed.includes('call_page_tool') && listed.includes('list_page_tools'), listed.join(', '));
    const opened = await client.callTool({ name: 'open_tab', arguments: { url: `${served.site.url}/codehub/` } });
    assert.notEqual(opened.isError, true, textOf(opened));
    const pageTools = await client.callTool({ name: 'list_page_tools', arguments: {} });
    assert.match(textOf(pageTools), /view_issues/);
    const issues = await client.callTool({ name: 'call_page_tool', arguments: { name: 'view_issues', arguments: {} } });
    assert.notEqual(issues.isError, true, textOf(issues));
  });

  it('2026-07-28 lists carry caching hints: lists are never cached, discover for ten minutes, all private', async () => {
    const ask = async (method: string) => {
      const response = await fetch(served.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: served.authorization,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { _meta: MODERN_META } }),
      });
      assert.equal(response.status, 200, method);
      return ((await response.json()) as { result: Record<string, unknown> }).result;
    };
    for (const method of ['tools/list', 'resources/list', 'prompts/list']) {
      const result = await ask(method);
      assert.deepEqual([result.ttlMs, result.cacheScope], [0, 'private'], `${method}: ${JSON.stringify(result)}`);
    }
    const discovered = await ask('server/discover');
    assert.deepEqual([discovered.ttlMs, discovered.cacheScope], [600_000, 'private']);
  });
});
