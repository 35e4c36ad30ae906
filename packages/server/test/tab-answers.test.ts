import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, ProtocolError } from '@tabmcp/protocol';
import { BrowserSession } from '../src/core/session';
import { FakeBrowser } from './fake-connection';

/** Issue 14, defects 2, 5 and 7: what open_tab and focus_tab answer, and the tabs they leave behind. */
async function connected(browser = new FakeBrowser()) {
  const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10 });
  await session.callTool('connect_browser', {});
  return { browser, session };
}

const json = (result: { content: unknown[] }) => JSON.parse((result.content[0] as { text: string }).text);

describe('what open_tab and focus_tab answer', () => {
  it('focus=false lists the names the agent will call, not the raw page names (defect 7)', async () => {
    const { session } = await connected();
    const opened = json(await session.callTool('open_tab', { url: 'http://shop.test/', focus: false }));
    // The shop's "list_tabs" collides with a core tool and its "weird name!" is not a valid name.
    assert.ok(!opened.toolsAvailable.includes('list_tabs'), opened.toolsAvailable.join(', '));
    assert.ok(!opened.toolsAvailable.includes('weird name!'), opened.toolsAvailable.join(', '));
    const focused = json(await session.callTool('focus_tab', { tabId: opened.tab.id }));
    assert.equal(focused.toolCount, opened.toolsAvailable.length, 'focused, the list_changed brings the names');
    assert.equal(focused.toolsAvailable, undefined);
  });

  it('with the fallback tools on (a client that may not follow list changes), focused tabs name their tools', async () => {
    const session = new BrowserSession({
      connection: new FakeBrowser(),
      launcher: undefined,
      connectGraceMs: 10,
      fallbackTools: true,
    });
    await session.callTool('connect_browser', {});
    const opened = json(await session.callTool('open_tab', { url: 'http://shop.test/' }));
    assert.deepEqual(opened.toolsAvailable, ['add_to_cart', 'page_list_tabs', 'weird_name_']);
    assert.equal(opened.toolCount, undefined);
  });

  it('tools held back by a site not allowed say why and what releases them (defect 2)', async () => {
    const browser = new FakeBrowser();
    browser.tabs.set(7, { id: 7, title: 'Notes', url: 'http://notes.test/', tools: [], siteAccess: 'pending' });
    const { session } = await connected(browser);
    const focused = json(await session.callTool('focus_tab', { tabId: 7 }));
    assert.equal(focused.toolCount, 0);
    assert.match(focused.note, /not allowed yet\. The user allows it in the tabmcp popup/);
  });

  it('a focus_tab on a tab the browser no longer has forgets it (defect 5)', async () => {
    const browser = new FakeBrowser();
    browser.tabs.set(7, { id: 7, title: 'Gone', url: 'http://gone.test/', tools: [] });
    const { session } = await connected(browser);
    browser.focusTab = async (tabId: number) => {
      throw new ProtocolError(ErrorCode.TabNotFound, `No tab ${tabId}`);
    };
    const failed = await session.callTool('focus_tab', { tabId: 7 });
    assert.equal(failed.isError, true);
    assert.match((failed.content[0] as { text: string }).text, /Tab 7 is gone from the browser/);
    assert.deepEqual(json(await session.callTool('list_tabs', {})).tabs, []);
  });
});
