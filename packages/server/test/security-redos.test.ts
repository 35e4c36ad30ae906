import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Tool } from '@tabmcp/protocol';
import { BrowserSession } from '../src/core/session';
import { AllView } from '../src/views/all-view';
import { FakeBrowser, HubBrowser } from './fake-connection';

/**
 * Issue 13, finding 5: a page-written `pattern` must not run in tabmcp. This one backtracks
 * exponentially: on 35 characters that end in a non-word character it held the process (every
 * session and peer on it) for more than two minutes. Run before the fix, this file never finishes.
 */
const CATASTROPHIC = { type: 'object' as const, properties: { q: { type: 'string', pattern: '^(\\w+\\s?)*$' } } };
const EVIL_INPUT = `${'a'.repeat(34)}!`;

/** A session focused on a tab of evil.test whose one tool has `schema`. */
async function focusedOnSearch(schema: Tool['inputSchema']) {
  const browser = new FakeBrowser();
  browser.tabs.set(3, {
    id: 3,
    title: 'Evil',
    url: 'http://evil.test/',
    active: true,
    tools: [{ name: 'search', inputSchema: schema }],
  });
  const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10 });
  await session.callTool('connect_browser', {});
  await session.callTool('focus_tab', { tabId: 3 });
  return { browser, session };
}

describe('security: page regexes never run in tabmcp (finding 5)', () => {
  it('a focused page tool with a catastrophic pattern: the call goes to the page, which checks it', async () => {
    const { browser, session } = await focusedOnSearch(CATASTROPHIC);
    const result = await session.callTool('search', { q: EVIL_INPUT });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.deepEqual(
      browser.calls.map((call) => call.args),
      [{ q: EVIL_INPUT }],
    );
  });

  it('the rest of the schema is still checked', async () => {
    const { browser, session } = await focusedOnSearch({ ...CATASTROPHIC, required: ['q'] });
    const result = await session.callTool('search', { q: 42 });
    assert.equal(result.isError, true);
    assert.deepEqual(browser.calls, []);
  });

  it('a property called "pattern" is an argument like any other, still checked', async () => {
    const schema = {
      type: 'object' as const,
      properties: { pattern: { type: 'string' } },
      additionalProperties: false,
    };
    const { browser, session } = await focusedOnSearch(schema);
    assert.notEqual((await session.callTool('search', { pattern: 'a+' })).isError, true);
    assert.equal((await session.callTool('search', { pattern: 7 })).isError, true);
    assert.deepEqual(browser.calls.length, 1);
  });

  it('$refs that branch exponentially: the check gives up on its budget and the page decides', async () => {
    // Level n is "level n-1 or level n-1": 2^40 paths from a schema of 40 lines.
    const $defs: Record<string, unknown> = { level0: { type: 'string' } };
    for (let n = 1; n <= 40; n++) {
      $defs[`level${n}`] = { anyOf: [{ $ref: `#/$defs/level${n - 1}` }, { $ref: `#/$defs/level${n - 1}` }] };
    }
    const { browser, session } = await focusedOnSearch({
      type: 'object',
      properties: { q: { $ref: '#/$defs/level40' } },
      $defs,
    });
    // A value that fits makes the validator walk every path (one that fails overflows its stack sooner).
    for (const q of ['fits', 42]) {
      const result = await session.callTool('search', { q });
      assert.notEqual(result.isError, true, JSON.stringify(result));
    }
    assert.deepEqual(
      browser.calls.map((call) => call.args),
      [{ q: 'fits' }, { q: 42 }],
    );
  });

  it('a hub tool with a catastrophic pattern in the all view', async () => {
    const browser = new HubBrowser();
    const name = 'website_tool_evil_test_tab1_search';
    browser.hubTools = [{ name, inputSchema: CATASTROPHIC }];
    browser.tabs.set(3, { id: 3, title: 'Evil', url: 'http://evil.test/', active: true, tools: [] });
    const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10 });
    const view = new AllView(session, browser);
    await view.callTool('connect_browser', {});
    await new Promise((done) => setImmediate(done));
    const result = await view.callTool(name, { q: EVIL_INPUT });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.deepEqual(browser.hubCalls, [{ name, args: { q: EVIL_INPUT } }]);
  });
});
