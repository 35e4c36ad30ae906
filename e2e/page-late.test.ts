import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { startTabmcp, type TabmcpUnderTest, textOf, waitFor } from '../test-support/harness';

/**
 * A page whose own tools appear long after it loaded (here a window.mcp object after 6 s, past the
 * content script's first discovery) first gets DOM-derived tools, then its own replace them.
 */
describe('a page that publishes its tools late', () => {
  let site: ExampleServer;
  let tabmcp: TabmcpUnderTest;

  before(async () => {
    site = await startExampleServer();
    tabmcp = await startTabmcp();
    const connected = await tabmcp.call('connect_browser', { launch: true });
    assert.notEqual(connected.isError, true, textOf(connected));
  });

  after(async () => {
    await tabmcp?.close();
    await site?.close();
  });

  it('shows DOM-derived tools first, then the page own tools once it publishes them', async () => {
    const opened = await tabmcp.call('open_tab', { url: `${site.url}/interop/late.html?delay=6000` });
    assert.notEqual(opened.isError, true, textOf(opened));
    await waitFor(async () => (await tabmcp.toolNames()).includes('get_page_content'), 5_000, 'DOM-derived tools');
    assert.ok(!(await tabmcp.toolNames()).includes('late_hello'));
    const names = await waitFor(
      async () => {
        const current = await tabmcp.toolNames();
        return current.includes('late_hello') ? current : undefined;
      },
      15_000,
      'the late page tools',
    );
    // `act` is offered only by DOM-derived tools; the reading tools stay beside the page's own.
    assert.ok(!names.includes('act'), 'the page own tools replace the derived ones');
    assert.ok(names.includes('get_page_content'), 'the agent can still read the page');
    const result = await tabmcp.call('late_hello');
    assert.notEqual(result.isError, true, textOf(result));
    assert.match(textOf(result), /hello from a late page/);
  });
});
