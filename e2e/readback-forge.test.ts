import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gauntletAgent } from '../test-support/gauntlet-agent';
import { textOf } from '../test-support/harness';
import { type LaunchedScene, pageWithUrl, startLaunchedScene } from '../test-support/server-harness';

/**
 * Issue 38, "a page forges the readback": the page hears the id of the content script's watch
 * (it crosses the shared document) and answers with a fake report of a navigation, and dispatches
 * a fake `navigate` event, so that a refused uncheck would be answered `done`, unread, with
 * `navigating: true`. Whether an action navigated comes only from the browser's own events now
 * (content/page-activity.ts): the uncheck is read back and reported as failed.
 */
describe('a page that forges the readback (issue 38)', () => {
  let scene: LaunchedScene;

  before(async () => {
    scene = await startLaunchedScene();
  });
  after(() => scene?.close());

  it('a refused uncheck is read back as failed, never "navigating"', async () => {
    await scene.agent.json('open_tab', { url: `${scene.site.url}/dom-patterns/forged-readback.html` });
    const script = gauntletAgent(scene.agent);
    const content = textOf(await script.call('get_page_content'));
    const handle = /\[checkbox[^\]]*?\b([a-z]\d+)\] Email me offers/.exec(content)?.[1];
    assert.ok(handle, content);
    const answer = await script.json<Record<string, unknown>>('act', { handle, action: 'uncheck' });
    const page = await pageWithUrl(scene.browser, '/dom-patterns/forged-readback.html');
    assert.ok(((await page.evaluate('window.forged')) as number) > 0, 'the page forged its reports');
    assert.equal(answer.navigating, undefined, script.why());
    assert.equal(answer.done, undefined, script.why());
    assert.match(String(answer.failed), /uncheck|checked/i, script.why());
    assert.equal(await page.evaluate(() => (document.getElementById('offers') as HTMLInputElement).checked), true);
  });
});
