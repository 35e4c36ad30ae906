import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, mayHaveRun, ProtocolError } from '@tabmcp/protocol';
import { BrowserSession } from '../src/core/session';
import { FakeBrowser } from './fake-connection';

/** A browser whose page tool fails with `failure`, as the extension's hub reports it (a code and a text). */
class FailingBrowser extends FakeBrowser {
  failure: ProtocolError | undefined;
  override async callTool(tabId: number, toolName: string, args: Record<string, unknown>) {
    if (this.failure) throw this.failure;
    return super.callTool(tabId, toolName, args);
  }
}

async function focusedShop(failure: ProtocolError) {
  const browser = new FailingBrowser();
  const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10 });
  await session.callTool('connect_browser', {});
  await session.callTool('open_tab', { url: 'http://shop.test/' });
  browser.failure = failure;
  const result = await session.callTool('add_to_cart', { productId: 'p1' });
  assert.equal(result.isError, true);
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Issue 27 D1: the focused view answers by the error's code, and never advises repeating a call that may have run. */
describe('a page tool call that fails in the focused view', () => {
  it('reached the page, which reloaded: says it may have run, never "try again"', async () => {
    const text = await focusedShop(
      new ProtocolError(ErrorCode.PageLostMidCall, 'The page in tab 100 went away (closed, reloaded or navigated)'),
    );
    assert.ok(text.includes(mayHaveRun('add_to_cart')), text);
    assert.doesNotMatch(text, /try again|call it again in a moment/i);
  });

  it('timed out in the page: may still run, so no retry advice either', async () => {
    const text = await focusedShop(new ProtocolError(ErrorCode.RequestTimeout, 'did not answer within 30000 ms'));
    assert.ok(text.includes(mayHaveRun('add_to_cart')), text);
    assert.doesNotMatch(text, /try again/i);
  });

  it('never reached the loading page: calling again is safe and said so', async () => {
    const text = await focusedShop(new ProtocolError(ErrorCode.TabNotFound, 'Tab 100 has no connected page'));
    assert.match(text, /did not reach the page/);
  });

  it('classifies by code, not by wording: a lost page whose text sounds like a faulty tool is still "may have run"', async () => {
    const text = await focusedShop(new ProtocolError(ErrorCode.PageLostMidCall, 'not a tool result'));
    assert.ok(text.includes(mayHaveRun('add_to_cart')), text);
    assert.doesNotMatch(text, /faulty/);
    const faulty = await focusedShop(new ProtocolError(ErrorCode.FaultyToolResult, 'the page answered with a number'));
    assert.match(faulty, /Calling it again will not help/);
  });
});
