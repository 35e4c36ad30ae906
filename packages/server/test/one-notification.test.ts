import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BrowserSession } from '../src/core/session';
import { AllView } from '../src/views/all-view';
import { FakeBrowser, HubBrowser } from './fake-connection';

/**
 * Issue 14, defect 4: one transition, one tools/list_changed. Chromium reports a tab it creates or
 * closes with an event of its own, a turn before the answer; the agent must still hear once.
 */
async function connected() {
  const browser = new FakeBrowser();
  const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10 });
  let notified = 0;
  session.ontoolschanged = () => {
    notified++;
  };
  await session.callTool('connect_browser', {});
  await new Promise((turn) => setImmediate(turn));
  return { session, count: () => notified, reset: () => (notified = 0) };
}

/** Lets the turns the fake browser and the session queue run out (no timers on this path), so that a second
 * list_changed, if one were coming, has come. */
async function settled(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await new Promise((next) => setImmediate(next));
}

describe('one transition, one list_changed (defect 4)', () => {
  it('open_tab with focus from no tabs', async () => {
    const { session, count, reset } = await connected();
    reset();
    const opened = await session.callTool('open_tab', { url: 'http://shop.test/', focus: true });
    assert.notEqual(opened.isError, true);
    await settled();
    assert.equal(count(), 1);
    assert.equal(session.state, 'TAB_FOCUSED');
  });

  it('close_tab on the last tab', async () => {
    const { session, count, reset } = await connected();
    await session.callTool('open_tab', { url: 'http://shop.test/', focus: true });
    await settled();
    reset();
    await session.callTool('close_tab', {});
    await settled();
    assert.equal(count(), 1);
    assert.equal(session.state, 'CONNECTED_NO_TABS');
  });
});

/** A hub that reports the new tab's tools while open_tab is still waiting for them, as the extension does. */
class HubDuringOpen extends HubBrowser {
  #revision = 0;
  override async openTab(url: string, focus: boolean) {
    const opened = await super.openTab(url, focus);
    this.#revision += 1;
    this.emit({
      type: 'hubToolsChanged',
      revision: this.#revision,
      changed: [{ name: 'website_tool_shop_test_tab1_add_to_cart', inputSchema: { type: 'object' } }],
      removed: [],
    });
    await new Promise((turn) => setImmediate(turn));
    return opened;
  }
}

describe('one transition, one list_changed in the `all` view (issue 27 D9)', () => {
  it('open_tab whose tab publishes tools before the answer', async () => {
    const browser = new HubDuringOpen();
    const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10 });
    const view = new AllView(session, browser);
    let notified = 0;
    view.ontoolschanged = () => {
      notified++;
    };
    await view.callTool('connect_browser', {});
    await settled();
    notified = 0;
    const opened = await view.callTool('open_tab', { url: 'http://shop.test/', focus: true });
    assert.notEqual(opened.isError, true);
    await settled();
    assert.equal(notified, 1);
    assert.ok(view.listTools().some((tool) => tool.name === 'website_tool_shop_test_tab1_add_to_cart'));
  });
});
