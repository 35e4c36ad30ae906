import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textOf, waitFor } from '../test-support/harness';
import { evaluateIn } from '../test-support/page-eval';
import { type Scene, startScene } from '../test-support/server-harness';

/**
 * Issue 23, `--input auto`: page events first, and the browser's own input once when they had no
 * effect. The page here acts only on trusted events; the outcome is read from the page over CDP.
 */
describe('--input auto: an action with no effect is sent again as the browser’s own input', () => {
  let scene: Scene;
  const state = <T>(expression: string) => evaluateIn<T>(scene.agent.stderr, '/widgets/trusted-only', expression);

  before(async () => {
    scene = await startScene(['--launch']);
    await waitFor(async () => (await scene.agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
    await scene.agent.json('open_tab', { url: `${scene.site.url}/widgets/trusted-only.html` });
  });
  after(() => scene?.close());

  const handleOf = async (token: RegExp) => {
    const read = textOf(await scene.agent.call('get_page_content'));
    const handle = token.exec(read)?.[1];
    assert.ok(handle, read);
    return handle;
  };

  it('a click the page ignores unless trusted: the page reads the same after it, so it is clicked again, for real', async () => {
    const handle = await handleOf(/\[clickable "Star this repository" ([a-z]\d+)\]/);
    const answer = await scene.agent.json<{ done?: string; changes?: string }>('act', { handle, action: 'click' });
    assert.match(answer.changes ?? '', /Starred/);
    assert.equal(await state('window.trusted.starred'), true);
  });
});
