import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textOf, waitFor } from '../test-support/harness';
import { type LaunchedScene, startLaunchedScene } from '../test-support/server-harness';

/**
 * Issue 14, defects 3 and 10: a `window.mcp` with only listTools, callTool and addEventListener
 * publishes its tools; results that are not CallToolResults reach the agent as their text, and a
 * malformed one is answered at once with its cause.
 */
describe('a minimal window.mcp and the results page code returns', () => {
  let scene: LaunchedScene;
  before(async () => {
    scene = await startLaunchedScene();
  });
  after(() => scene?.close());

  it('lists the tools of a window.mcp without getServerInfo or getCapabilities', async () => {
    await scene.agent.json('open_tab', { url: `${scene.site.url}/interop/minimal.html` });
    await waitFor(async () => (await scene.agent.toolNames()).includes('total') || undefined, 10_000, 'the page tools');
  });

  it('an object or a string a page returns is the text of the result', async () => {
    const total = await scene.agent.call('total');
    assert.notEqual(total.isError, true, textOf(total));
    assert.deepEqual(JSON.parse(textOf(total)), { total: 3, currency: 'EUR' });
    const shout = await scene.agent.call('shout');
    assert.equal(textOf(shout), 'HELLO');
  });

  it('a malformed result is an error at once, naming what was wrong', async () => {
    const broken = await scene.agent.call('broken');
    assert.equal(broken.isError, true);
    assert.match(textOf(broken), /broken/);
    assert.match(textOf(broken), /not a tool result/);
    assert.match(textOf(broken), /will not help/);
  });
});
