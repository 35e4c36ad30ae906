import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textOf, waitFor } from '../test-support/harness';
import { type Agent, browserOf, type Scene, startScene } from '../test-support/server-harness';

type Tabs = { tabs: Array<{ id: number; url: string }>; focusedTabId: number | null };

/**
 * docs/requirements.md#local-server, CONNECTED (no tabs): the agent closes every tab of the browser it
 * launched, and the browser is still there for open_tab. Nothing but tabmcp talks to the browser
 * here: a DevTools client would keep a windowless Chromium alive and hide the defect.
 */
describe('Closing the last tab of a launched browser', () => {
  let scene: Scene;
  let agent: Agent;

  before(async () => {
    scene = await startScene(['--launch']);
    ({ agent } = scene);
    await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the launched browser');
  });

  after(async () => {
    await scene?.close();
  });

  it('close_tab on every tab, then open_tab: the same browser opens the page', async () => {
    const launched = /"event":"browser.launched"/g;
    const before = agent.stderr().match(launched)?.length;
    await agent.json('open_tab', { url: `${scene.site.url}/codehub/` });
    for (const tab of (await agent.json<Tabs>('list_tabs')).tabs) {
      await agent.json('focus_tab', { tabId: tab.id });
      await agent.json('close_tab');
    }
    assert.deepEqual((await agent.json<Tabs>('list_tabs')).tabs, []);
    assert.deepEqual(await agent.toolNames(), ['list_tabs', 'open_tab']);
    // A browser with a window open: a browser with a screen would quit with its last window.
    const browser = await browserOf(agent);
    const pages = browser.contexts().flatMap((context) => context.pages());
    assert.deepEqual(
      pages.map((page) => new URL(page.url()).pathname),
      ['/keep-open.html'],
    );
    // Disconnected before open_tab: no DevTools client keeps the browser alive.
    await browser.close();

    const opened = await agent.call('open_tab', { url: `${scene.site.url}/travel/` });
    assert.notEqual(opened.isError, true, textOf(opened));
    const tabs = await agent.json<Tabs>('list_tabs');
    assert.equal(tabs.tabs.length, 1, JSON.stringify(tabs));
    assert.match(tabs.tabs[0]?.url ?? '', /\/travel\//);
    // The browser that survived, not a new one launched after the old one quit.
    assert.equal(agent.stderr().match(launched)?.length, before);
    assert.doesNotMatch(agent.stderr(), /"event":"browser.exited"/);
  });
});
