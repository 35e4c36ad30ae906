import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { serverBin } from '../test-support/paths';
import { type Machine, newMachine } from '../test-support/server-harness';
import { waitFor } from '../test-support/wait';

/** Probes `server/discover` on this connection instead of on a sibling process (see below). */
class InPlaceStdioClientTransport extends StdioClientTransport {}

type Mode = 'auto' | { pin: '2026-07-28' };

interface ModernAgent {
  client: Client;
  changes: () => number;
  stderr: () => string;
  close(): Promise<void>;
}

/**
 * A 2.x SDK client on stdio. The SDK's base stdio transport probes `auto` mode on a second,
 * short-lived tabmcp; the in-place subclass keeps this test at one tabmcp (one browser).
 */
async function startModernAgent(machine: Machine, mode: Mode, listen: boolean): Promise<ModernAgent> {
  let stderr = '';
  const transport = new InPlaceStdioClientTransport({
    command: process.execPath,
    args: [serverBin, '--headless', '--launch', '--port', String(machine.port)],
    env: { ...process.env, TABMCP_HOME: machine.home } as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'tabmcp-e2e-modern', version: '1.0.0' }, { versionNegotiation: { mode } });
  let changes = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    changes += 1;
  });
  await client.connect(transport);
  if (listen) await client.listen({ toolsListChanged: true });
  return { client, changes: () => changes, stderr: () => stderr, close: () => client.close() };
}

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((tool) => tool.name);
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((block) => block.text ?? '').join('\n');
}

async function connectAndOpen(agent: ModernAgent, site: ExampleServer): Promise<void> {
  await waitFor(
    async () => (await agent.client.callTool({ name: 'connect_browser', arguments: {} })).isError !== true,
    20_000,
    'the launched browser',
  );
  const opened = await agent.client.callTool({ name: 'open_tab', arguments: { url: `${site.url}/farefinder/` } });
  assert.notEqual(opened.isError, true, textOf(opened));
}

for (const mode of [{ pin: '2026-07-28' } as const, 'auto' as const]) {
  const label = mode === 'auto' ? 'auto mode' : 'pinned to 2026-07-28';
  describe(`a 2.x client ${label} on stdio`, () => {
    let site: ExampleServer;
    let machine: Machine;
    let agent: ModernAgent;

    before(async () => {
      site = await startExampleServer();
      machine = await newMachine();
      agent = await startModernAgent(machine, mode, true);
    });
    after(async () => {
      await agent?.close();
      await site?.close();
      machine?.close();
    });

    it('speaks 2026-07-28, hears the page tools arrive on its listen stream and calls one', async () => {
      assert.equal(agent.client.getNegotiatedProtocolVersion(), '2026-07-28');
      assert.ok(!(await toolNames(agent.client)).includes('call_page_tool'), 'a subscribed client needs no fallback');
      await connectAndOpen(agent, site);
      await waitFor(async () => agent.changes() > 0, 10_000, 'list_changed on the listen stream');
      await waitFor(async () => (await toolNames(agent.client)).includes('search_flights'), 10_000, 'page tools');
      const found = await agent.client.callTool({
        name: 'search_flights',
        arguments: { from: 'SFO', to: 'NYC', departDate: '2024-01-19' },
      });
      assert.notEqual(found.isError, true, textOf(found));
      assert.match(textOf(found), /\$520/);
    });
  });
}

describe('a 2026-07-28 client that does not subscribe to tool changes', () => {
  let site: ExampleServer;
  let machine: Machine;
  let agent: ModernAgent;

  before(async () => {
    site = await startExampleServer();
    machine = await newMachine();
    agent = await startModernAgent(machine, { pin: '2026-07-28' }, false);
  });
  after(async () => {
    await agent?.close();
    await site?.close();
    machine?.close();
  });

  it('gets the stable fallback tools without any flag, and reaches the page through them', async () => {
    await waitFor(async () => (await toolNames(agent.client)).includes('call_page_tool'), 5_000, 'fallback tools');
    await connectAndOpen(agent, site);
    const found = await agent.client.callTool({
      name: 'call_page_tool',
      arguments: { name: 'search_flights', arguments: { from: 'SFO', to: 'NYC', departDate: '2024-01-19' } },
    });
    assert.notEqual(found.isError, true, textOf(found));
    assert.match(textOf(found), /\$520/);
  });
});
