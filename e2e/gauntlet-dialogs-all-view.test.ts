import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startExampleServer } from '../examples/serve';
import { startTabmcp, type TabmcpUnderTest, textOf, waitFor } from '../test-support/harness';

type DialogAnswer = { dialog?: { kind: string; text: string }; note?: string };

/**
 * Issue 23, native dialogs in the `all` view: a call by hub name passes the same dialog gate as a
 * call to the focused tab. The click that opens an alert answers with it, and the next call to that
 * tab by hub name answers at once that it is open, instead of waiting out its timeout.
 */
describe('gauntlet: native dialogs through hub names (--view all)', () => {
  let tabmcp: TabmcpUnderTest;
  let site: Awaited<ReturnType<typeof startExampleServer>>;

  before(async () => {
    site = await startExampleServer();
    tabmcp = await startTabmcp(['--view', 'all']);
    const connected = await tabmcp.call('connect_browser', { launch: true });
    assert.notEqual(connected.isError, true, textOf(connected));
  });
  after(async () => {
    await tabmcp?.close();
    await site?.close();
  });

  it('a click by hub name reports the alert it opened; the tab then answers at once that it is open', async () => {
    const opened = await tabmcp.call('open_tab', { url: `${site.url}/gauntlet/dialogs.html`, focus: false });
    assert.notEqual(opened.isError, true, textOf(opened));
    const names = await waitFor(
      async () => {
        const list = await tabmcp.toolNames();
        const hello = list.find((name) => name.startsWith('website_tool_') && name.endsWith('say_hello'));
        const read = list.find((name) => name.startsWith('website_tool_') && name.endsWith('get_page_content'));
        return hello && read ? { hello, read } : undefined;
      },
      15_000,
      'the bills page under hub names',
    );
    const clicked = await tabmcp.call(names.hello);
    const answer = JSON.parse(textOf(clicked)) as DialogAnswer;
    assert.equal(answer.dialog?.kind, 'alert', textOf(clicked));
    assert.match(answer.dialog?.text ?? '', /\] Hello from the bills page/);
    const blocked = await tabmcp.call(names.read);
    assert.equal(blocked.isError, true, textOf(blocked));
    assert.equal((JSON.parse(textOf(blocked)) as DialogAnswer).dialog?.kind, 'alert', textOf(blocked));
  });
});
