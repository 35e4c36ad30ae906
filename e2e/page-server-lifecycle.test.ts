import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textOf, waitFor } from '../test-support/harness';
import { type LaunchedScene, pageWithUrl, startLaunchedScene } from '../test-support/server-harness';

/**
 * Issue 14, defects 9 and 10: a page's own MCP server may stop (an SPA unmounting the view that
 * owns it; MCP-B's transport says mcp-server-stopped) and start again, or fail; the tab keeps
 * tools throughout: the new server's once it speaks, DOM-derived ones while there is none.
 */
describe("a page's own MCP server that stops, restarts or fails", () => {
  let scene: LaunchedScene;
  before(async () => {
    scene = await startLaunchedScene();
  });
  after(() => scene?.close());

  const toolsWith = (wanted: string, without?: string) =>
    waitFor(
      async () => {
        const names = await scene.agent.toolNames();
        return names.includes(wanted) && (!without || !names.includes(without)) ? names : undefined;
      },
      20_000,
      `tools with ${wanted}${without ? ` and without ${without}` : ''}`,
    );

  it('a server stopped and started again at once: the new one publishes its tools', async () => {
    await scene.agent.json('open_tab', { url: `${scene.site.url}/interop/remount.html` });
    await toolsWith('view1_hello');
    const page = await pageWithUrl(scene.browser, 'remount.html');
    await page.evaluate('unmount(); mount();');
    await toolsWith('view2_hello', 'view1_hello');
    const result = await scene.agent.call('view2_hello');
    assert.notEqual(result.isError, true, textOf(result));
    assert.equal(textOf(result), 'hello from view 2');
  });

  it('while no server runs the tab has derived tools, and the next server takes over', async () => {
    const page = await pageWithUrl(scene.browser, 'remount.html');
    await page.evaluate('unmount();');
    // `act` is offered only by DOM-derived tools.
    await toolsWith('act', 'view2_hello');
    await page.evaluate('mount();');
    const names = await toolsWith('view3_hello', 'act');
    assert.ok(names.includes('get_page_content'), 'the reading tools stay beside the page own tools');
  });

  for (const mode of ['throw', 'hang']) {
    it(`a window.mcp whose listTools ${mode === 'throw' ? 'throws' : 'never answers'}: derived tools`, async () => {
      await scene.agent.json('open_tab', { url: `${scene.site.url}/interop/failing.html?mode=${mode}` });
      await toolsWith('act');
    });
  }
});
