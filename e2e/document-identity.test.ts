import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { textOf, waitFor } from '../test-support/harness';
import { type Agent, type LaunchedScene, pageWithUrl, startLaunchedScene } from '../test-support/server-harness';

/**
 * Issue 25: every call carries the document whose tool list it came from. The tab loads another
 * page between the agent's list and its call, and the new page has a tool of the very same name:
 * the call is refused with nothing run; once the agent lists again, the call runs there.
 * Driven by the official MCP SDK client through tabmcp, checked on the pages over CDP.
 */
describe('a call that races a navigation', () => {
  let scene: LaunchedScene;
  let agent: Agent;
  let page: Page;
  let site: string;

  before(async () => {
    scene = await startLaunchedScene();
    agent = scene.agent;
    site = scene.site.url;
    await agent.json('open_tab', { url: `${site}/dom-patterns/same-tools.html?page=1` });
    page = await pageWithUrl(scene.browser, '/dom-patterns/same-tools.html');
  });

  after(() => scene?.close());

  const clicked = () => page.evaluate(() => document.getElementById('log')?.dataset.clicked ?? 'nothing');

  it('is refused on the next page, never running its tool of the same name', async () => {
    // The agent reads the first page's list: click_continue is that page's button.
    await waitFor(
      async () => (await agent.toolNames()).includes('click_continue') || undefined,
      10_000,
      'page 1 tools',
    );
    const before = agent.listChangedCount();
    // The tab loads the second page on its own; the agent has not read its list.
    await page.goto(`${site}/dom-patterns/same-tools.html?page=2`);
    // Its tools reached the server (it adds click_back_to_cart), announced; the agent does not list them.
    await waitFor(() => agent.listChangedCount() > before || undefined, 10_000, 'a tools/list_changed for page 2');
    const refused = await agent.call('click_continue');
    assert.equal(refused.isError, true, textOf(refused));
    assert.match(
      textOf(refused),
      /^The page changed since the tool list was read: "click_continue" was listed for the page before, and nothing ran\. The new page's tools are listed now: list the tools again/,
    );
    assert.equal(await clicked(), 'nothing', 'the second page’s Continue was not clicked');

    // Listed again, the name is the second page's, and the call runs there.
    const names = await agent.toolNames();
    assert.ok(names.includes('click_continue') && names.includes('click_back_to_cart'), names.join(', '));
    const done = await agent.json('click_continue');
    assert.match(String(done.done), /clicked button "Continue"/);
    assert.equal(await clicked(), 'page 2');
    const listed = await agent.client.listTools();
    assert.ok(
      listed.tools.every((tool) => !JSON.stringify(tool).includes('tabmcp/document')),
      'the document id is the server’s to keep, not in the agent’s list',
    );
    assert.ok(!JSON.stringify(done).includes('tabmcp/document'), 'nor in answers');
  });
});
