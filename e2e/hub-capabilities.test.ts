import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { httpTabmcpForTests } from '../test-support/http-tabmcp';
import { type HubSite, startHubSite } from '../test-support/hub-fixture';
import { waitFor } from '../test-support/wait';

/**
 * docs/requirements.md "Capability Negotiation" in real Chromium: a page server declares `browser.cacheSupported`,
 * the content script passes it on, the hub aggregates it, and an MCP client that connects afterwards
 * sees it. Stateless 2026-07-28 HTTP builds its server per request, so a new client reads the
 * capabilities of that moment.
 */
describe('hub capabilities: what pages declare reaches MCP clients', () => {
  const served = httpTabmcpForTests<HubSite, Client>(() => startHubSite('127.0.0.1'));

  async function connect(): Promise<Client> {
    const client = new Client(
      { name: 'tabmcp-e2e-capabilities', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(served.url), {
        requestInit: { headers: { authorization: served.authorization } },
      }),
    );
    served.clients.push(client);
    return client;
  }
  const browserCapabilities = (client: Client) =>
    (client.getServerCapabilities()?.experimental as { browser?: Record<string, boolean> } | undefined)?.browser;

  it('no page declares caching, then one does: a client connecting afterwards sees cacheSupported', async () => {
    const first = await connect();
    assert.deepEqual(browserCapabilities(first), { multiTabSupport: true, cacheSupported: false, elicitation: false });
    await waitFor(
      async () => (await first.callTool({ name: 'connect_browser', arguments: {} })).isError !== true,
      20_000,
      'the launched browser',
    );
    const opened = await first.callTool({
      name: 'open_tab',
      arguments: { url: `${served.site.url('127.0.0.1')}/declares.html` },
    });
    assert.notEqual(opened.isError, true, JSON.stringify(opened));
    await waitFor(
      async () =>
        (await first.listTools(undefined, { cacheMode: 'bypass' })).tools.some((tool) => tool.name.endsWith('_whoami')),
      10_000,
      'the page tool',
    );
    const later = await connect();
    assert.deepEqual(browserCapabilities(later), { multiTabSupport: true, cacheSupported: true, elicitation: false });
  });
});
