import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ExampleServer } from '../examples/serve';
import { textOf, waitFor } from '../test-support/harness';
import { type Agent, type Scene, startScene } from '../test-support/server-harness';

const STABLE = [
  'connect_browser',
  'list_tabs',
  'open_tab',
  'focus_tab',
  'close_tab',
  'handle_dialog',
  'list_page_tools',
  'call_page_tool',
];

/** --fallback-tools: a client that never re-reads the tool list still reaches every page tool. */
describe('stable fallback tools for clients that ignore list_changed', () => {
  let scene: Scene;
  let site: ExampleServer;
  let agent: Agent;

  before(async () => {
    scene = await startScene(['--launch', '--fallback-tools']);
    ({ site, agent } = scene);
  });

  after(() => scene?.close());

  it('lists the same tools before connecting as a client would keep them, and they reach the page', async () => {
    // What a client like Claude Desktop sees once, at start, and keeps.
    const atStart = await agent.toolNames();
    assert.deepEqual(atStart, STABLE);
    await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the launched browser');
    await agent.json('open_tab', { url: `${site.url}/farefinder/` });
    const listed = await agent.json<{ tools: Array<{ name: string; inputSchema: { required?: string[] } }> }>(
      'list_page_tools',
    );
    const search = listed.tools.find((tool) => tool.name === 'search_flights');
    assert.deepEqual(search?.inputSchema.required, ['from', 'to', 'departDate']);
    const refused = await agent.call('call_page_tool', { name: 'search_flights', arguments: { from: 'SFO' } });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /to: required/);
    const found = await agent.json<{ changes: string }>('call_page_tool', {
      name: 'search_flights',
      arguments: { from: 'SFO', to: 'NYC', departDate: '2024-01-19' },
    });
    assert.match(found.changes, /\$520/);
    // The stable tools are still all there, in the same order, after the page tools were added.
    assert.deepEqual((await agent.toolNames()).slice(0, STABLE.length), STABLE);
  });
});
