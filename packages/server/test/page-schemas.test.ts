import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@tabmcp/protocol';
import { BrowserSession } from '../src/core/session';
import { createMcpServer } from '../src/mcp/serve-mcp';
import { AllView } from '../src/views/all-view';
import { FakeBrowser, HubBrowser } from './fake-connection';

/**
 * Issue 14, defect 12: a schema whose `oneOf` branches are `$ref`s into `$defs` (what zod and
 * pydantic write for a union of named shapes). The old checker ignored `$ref`, so both branches
 * matched anything, `oneOf` saw two matches, and every call was refused.
 */
const PICK_TARGET: Tool['inputSchema'] = {
  type: 'object',
  properties: { target: { oneOf: [{ $ref: '#/$defs/byId' }, { $ref: '#/$defs/byName' }] } },
  required: ['target'],
  additionalProperties: false,
  $defs: {
    byId: {
      type: 'object',
      properties: { id: { type: 'integer', minimum: 1 } },
      required: ['id'],
      additionalProperties: false,
    },
    byName: {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 } },
      required: ['name'],
      additionalProperties: false,
    },
  },
};

/** The whole answer as text: the assertions look for phrases in its content. */
const textOf = (result: object) => JSON.stringify(result);

/** tabmcp's MCP server over the focused view, a client on the other end of an in-process pipe. */
async function agentOnPickTab() {
  const browser = new FakeBrowser();
  browser.tabs.set(3, {
    id: 3,
    title: 'Picker',
    url: 'http://pick.test/',
    active: true,
    tools: [{ name: 'pick', inputSchema: PICK_TARGET }],
  });
  const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10 });
  const server = createMcpServer(session);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'agent', version: '1' });
  await client.connect(clientSide);
  await client.callTool({ name: 'connect_browser', arguments: {} });
  await client.callTool({ name: 'focus_tab', arguments: { tabId: 3 } });
  return { browser, client };
}

describe('page tool schemas with oneOf and $ref (issue 14, defect 12)', () => {
  it('a valid call through tabmcp reaches the page, by either branch', async () => {
    const { browser, client } = await agentOnPickTab();
    const tools = await client.listTools();
    assert.ok(tools.tools.some((tool) => tool.name === 'pick'));
    for (const target of [{ id: 7 }, { name: 'seven' }]) {
      const result = await client.callTool({ name: 'pick', arguments: { target } });
      assert.notEqual(result.isError, true, textOf(result));
    }
    assert.deepEqual(
      browser.calls.map((call) => call.args),
      [{ target: { id: 7 } }, { target: { name: 'seven' } }],
    );
    await client.close();
  });

  it('an invalid call is refused with the field it is about, and never reaches the page', async () => {
    const { browser, client } = await agentOnPickTab();
    const both = await client.callTool({ name: 'pick', arguments: { target: { id: 0 } } });
    assert.equal(both.isError, true);
    assert.match(textOf(both), /arguments\.target: does not match exactly one of the allowed shapes/);
    const missing = await client.callTool({ name: 'pick', arguments: {} });
    assert.match(textOf(missing), /arguments\.target: required/);
    assert.match(textOf(missing), /Expected input schema: \{/, 'the schema to fix the call by');
    assert.deepEqual(browser.calls, []);
    await client.close();
  });

  it('the all view checks hub tools the same way', async () => {
    const browser = new HubBrowser();
    const name = 'website_tool_pick_test_tab1_pick';
    browser.hubTools = [{ name, inputSchema: PICK_TARGET }];
    const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10 });
    const view = new AllView(session, browser);
    await view.callTool('connect_browser', {});
    await new Promise((done) => setImmediate(done));
    const valid = await view.callTool(name, { target: { name: 'seven' } });
    assert.notEqual(valid.isError, true, textOf(valid));
    const invalid = await view.callTool(name, { target: { name: '' } });
    assert.equal(invalid.isError, true);
    assert.match(textOf(invalid), /arguments\.target: does not match exactly one/);
    assert.deepEqual(browser.hubCalls, [{ name, args: { target: { name: 'seven' } } }]);
  });
});
