import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerRequest, Tool } from '@tabmcp/protocol';
import { BrowserSession } from '../src/core/session';
import { hasPagePrimitives } from '../src/mcp/page-resources';
import { AllView } from '../src/views/all-view';
import { FakeBrowser } from './fake-connection';

/** The fake browser, plus the extension hub's answers to the `all` view's requests. */
class FakeHubBrowser extends FakeBrowser {
  hubTools: Tool[] = [];
  requests: ServerRequest[] = [];
  async requestValue(message: ServerRequest): Promise<unknown> {
    this.requests.push(message);
    if (message.type === 'listHubTools') {
      return {
        tools: this.hubTools,
        capabilities: { multiTabSupport: true, cacheSupported: true, elicitation: false },
        revision: 0,
      };
    }
    if (message.type === 'callHubTool') {
      if (message.name.endsWith('_gone')) throw new Error('Tab 3 closed before Tool "gone" could run');
      // As the hub does: it routes the names it knows, listed or not (a cached tool's domain-only name).
      if (message.name.includes('nowhere')) throw new Error(`No tool "${message.name}". List the tools again.`);
      return { content: [{ type: 'text', text: `ran ${message.name}` }] };
    }
    throw new Error(`unexpected ${message.type}`);
  }
}

const searchTool: Tool = {
  name: 'website_tool_shop_test_tab1_search',
  description: '[page http://shop.test, tab 1] Search',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  outputSchema: { type: 'object', properties: { hits: { type: 'number' } } },
};
const goneTool: Tool = { name: 'website_tool_shop_test_tab2_gone', inputSchema: { type: 'object' } };

function setup() {
  const browser = new FakeHubBrowser();
  browser.hubTools = [searchTool];
  const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10 });
  const view = new AllView(session, browser);
  let changes = 0;
  view.ontoolschanged = () => {
    changes += 1;
  };
  const settle = () => new Promise((done) => setImmediate(done));
  const names = () => view.listTools().map((tool) => tool.name);
  return { browser, session, view, settle, names, changes: () => changes };
}

describe('the all view', () => {
  it('shows hub tools (schemas whole) once the agent connected, with one list_changed per change', async () => {
    const { view, settle, names, changes, browser } = setup();
    await settle();
    assert.deepEqual(names(), ['connect_browser'], 'hidden while DISCONNECTED');
    await view.callTool('connect_browser', {});
    await settle();
    assert.deepEqual(names(), ['list_tabs', 'open_tab', searchTool.name]);
    assert.deepEqual(
      view.listTools().find((tool) => tool.name === searchTool.name),
      searchTool,
    );
    assert.equal(changes(), 1);
    browser.emit({ type: 'hubToolsChanged', revision: 1, changed: [goneTool], removed: [] });
    browser.emit({ type: 'hubToolsChanged', revision: 2, changed: [goneTool], removed: [] });
    await settle();
    assert.equal(changes(), 2);
    assert.deepEqual(view.capabilities.experimental.browser, {
      multiTabSupport: true,
      cacheSupported: true,
      elicitation: false,
    });
  });

  it("declares docs/requirements.md#hub's browser capabilities as the hub reports them, not fixed ones", async () => {
    const { view, settle, browser } = setup();
    await settle();
    assert.equal(view.capabilities.experimental.browser.cacheSupported, true, 'from the hub list');
    browser.emit({
      type: 'hubToolsChanged',
      revision: 1,
      changed: [],
      removed: [],
      capabilities: { multiTabSupport: true, cacheSupported: false, elicitation: false },
    });
    assert.deepEqual(view.capabilities.experimental.browser, {
      multiTabSupport: true,
      cacheSupported: false,
      elicitation: false,
    });
  });

  it('routes hub tools to the hub, checks arguments first, and turns failures into recoverable errors', async () => {
    const { view, settle, browser } = setup();
    await view.callTool('connect_browser', {});
    await settle();
    const ran = await view.callTool(searchTool.name, { q: 'tea' });
    assert.deepEqual(ran.content, [{ type: 'text', text: `ran ${searchTool.name}` }]);
    const call = browser.requests.find((request) => request.type === 'callHubTool');
    assert.deepEqual(call && 'args' in call ? call.args : undefined, { q: 'tea' });
    const invalid = await view.callTool(searchTool.name, {});
    assert.equal(invalid.isError, true);
    assert.match(JSON.stringify(invalid.content), /q/);
    browser.emit({ type: 'hubToolsChanged', revision: 1, changed: [goneTool], removed: [] });
    const failed = await view.callTool(goneTool.name, {});
    assert.equal(failed.isError, true);
    assert.match(JSON.stringify(failed.content), /closed.*List the tools again/);
    const unknown = await view.callTool('website_tool_nowhere_tab1_x', {});
    assert.equal(unknown.isError, true);
    // Issue 27 H2: an unlisted hub name (a cached tool's domain-only name, its page open again) still reaches the hub.
    const held = await view.callTool('website_tool_shop_test_notes', { text: 'hi' });
    assert.deepEqual(held.content, [{ type: 'text', text: 'ran website_tool_shop_test_notes' }]);
  });
});

describe('the all view and page resources', () => {
  it("passes the focused tab's resources and prompts through, like the focused view", async () => {
    const { view, session, settle } = setup();
    assert.ok(hasPagePrimitives(view), 'the MCP face declares resources and prompts for the all view too');
    await view.callTool('connect_browser', {});
    assert.equal(view.requestFocusedPage('resources/list'), undefined, 'no tab focused yet');
    await view.callTool('open_tab', { url: 'http://shop.test/' });
    await settle();
    const events: string[] = [];
    view.onpageevent = (event) => events.push(event.type);
    assert.equal(session.onpageevent, view.onpageevent);
    assert.deepEqual(await view.requestFocusedPage('resources/list'), {
      tabId: session.focusedTabId,
      method: 'resources/list',
    });
    await view.callTool('open_tab', { url: 'http://shop.test/second' });
    assert.deepEqual(events, ['focus']);
  });

  it('hears the link beside the session: both follow a drop, and the hub list is fetched again when it is back', async () => {
    const { view, session, settle, names, browser } = setup();
    await view.callTool('connect_browser', {});
    await settle();
    assert.ok(names().includes(searchTool.name));
    browser.drop();
    await settle();
    assert.equal(session.state, 'DISCONNECTED', 'the session still hears the link');
    const asked = browser.requests.length;
    browser.hubTools = [searchTool, goneTool];
    browser.up();
    await settle();
    await settle();
    assert.equal(browser.requests.length, asked + 1, 'the view asked the hub again');
    assert.equal(browser.requests.at(-1)?.type, 'listHubTools');
    assert.ok(names().includes(goneTool.name), 'and shows what the hub has now');
  });
});
