import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { httpBearerToken } from '../packages/server/src/mcp/http-token';
import { type HttpTabmcp, startHttpTabmcp } from '../test-support/http-tabmcp';
import { type HubSite, startHubSite } from '../test-support/hub-fixture';
import { type Machine, newMachine } from '../test-support/server-harness';
import { waitFor } from '../test-support/wait';

/**
 * docs/requirements.md "Capability Negotiation" in real Chromium: a page server declares `browser.cacheSupported`,
 * the content script passes it on, the hub aggregates it, and an MCP client that connects afterwards
 * sees it. Stateless 2026-07-28 HTTP builds its server per request, so a new client reads the
 * capabilities of that moment.
 */
describe('hub capabilities: what pages declare reaches MCP clients', () => {
  let site: HubSite;
  let machine: Machine;
  let tabmcp: HttpTabmcp | undefined;
  let url: string;
  const clients: Client[] = [];

  async function connect(): Promise<Client> {
    const client = new Client(
      { name: 'tabmcp-e2e-capabilities', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const authorization = `Bearer ${httpBearerToken(machine.token)}`;
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization } } }),
    );
    clients.push(client);
    return client;
  }
  const browserCapabilities = (client: Client) =>
    (client.getServerCapabilities()?.experimental as { browser?: Record<string, boolean> } | undefined)?.browser;

  before(async () => {
    site = await startHubSite('127.0.0.1');
    machine = await newMachine();
    tabmcp = await startHttpTabmcp(machine);
    url = tabmcp.url;
  });

  after(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await tabmcp?.stop();
    await site?.close();
    machine?.close();
  });

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
      arguments: { url: `${site.url('127.0.0.1')}/declares.html` },
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
