import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BrowserSession } from '../src/core/session';
import { FakeBrowser } from './fake-connection';

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

const settled = () => new Promise((turn) => setTimeout(turn, 20));

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
