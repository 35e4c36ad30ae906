import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExtensionToServer, Tool } from '@tabmcp/protocol';
import { diffCatalog, HubCatalogFeed } from '../src/background/hub-catalog-feed';

const tool = (name: string, description = name): Tool => ({
  name: `website_tool_shop_test_tab1_${name}`,
  description,
  inputSchema: { type: 'object' },
});
const capabilities = { multiTabSupport: true, cacheSupported: false, elicitation: false };

/** A hub as the feed sees it: a list that tests change, and its change signal. */
function fakeHub(initial: Tool[]) {
  let tools = initial;
  const listeners: Array<(tools: Tool[]) => void> = [];
  return {
    hub: {
      onHubToolsChanged: (listener: (tools: Tool[]) => void) => {
        listeners.push(listener);
        return () => {};
      },
      hubTools: () => tools,
      capabilities: () => capabilities,
    },
    set(next: Tool[]) {
      tools = next;
      for (const listener of listeners) listener(next);
    },
  };
}

const tick = () => new Promise<void>((done) => queueMicrotask(done));
type Changed = Extract<ExtensionToServer, { type: 'hubToolsChanged' }>;
const changes = (sent: ExtensionToServer[]) =>
  sent.filter((message): message is Changed => message.type === 'hubToolsChanged');
const names = (tools: Tool[]) => tools.map((entry) => entry.name.replace('website_tool_shop_test_tab1_', ''));

describe('the hub catalog diff (issue 24, item 4)', () => {
  it('names only the tools added or changed, and the ones gone', () => {
    const first = diffCatalog(new Map(), [tool('a'), tool('b')]);
    assert.deepEqual(names(first.changed), ['a', 'b']);
    assert.deepEqual(first.removed, []);
    const second = diffCatalog(first.now, [tool('a'), tool('b', 'new words'), tool('c')]);
    assert.deepEqual(names(second.changed), ['b', 'c'], 'a is the same: not sent again');
    const third = diffCatalog(second.now, [tool('c')]);
    assert.deepEqual(third.changed, []);
    assert.deepEqual(third.removed, [tool('a').name, tool('b').name]);
  });
});

describe('the hub catalog feed', () => {
  it('sends nothing until a server watches, then only what changed, numbered after the list it answered', async () => {
    const { hub, set } = fakeHub([tool('a')]);
    const sent: ExtensionToServer[] = [];
    const feed = new HubCatalogFeed(hub, (message) => sent.push(message));
    set([tool('a'), tool('b')]);
    await tick();
    assert.deepEqual(sent, [], 'nobody watches: nothing goes out');

    const list = feed.answer({ type: 'listHubTools', requestId: 'r1', watch: true });
    assert.deepEqual(list.type === 'response' && list.result, {
      tools: [tool('a'), tool('b')],
      capabilities,
      revision: 0,
    });
    set([tool('a'), tool('b'), tool('c')]);
    set([tool('b'), tool('c')]);
    await tick();
    assert.deepEqual(
      changes(sent).map(({ revision, changed, removed }) => ({ revision, changed: names(changed), removed })),
      [{ revision: 1, changed: ['c'], removed: [tool('a').name] }],
      'two changes in one task: one message, the difference only',
    );
    set([tool('b'), tool('c')]);
    await tick();
    assert.equal(changes(sent).length, 1, 'a change signal with no change sends nothing');
  });

  it('a list asked while a change waits sends the change first, and counts it', async () => {
    const { hub, set } = fakeHub([tool('a')]);
    const sent: ExtensionToServer[] = [];
    const feed = new HubCatalogFeed(hub, (message) => sent.push(message));
    feed.answer({ type: 'listHubTools', requestId: 'r1', watch: true });
    set([tool('a'), tool('b')]);
    const list = feed.answer({ type: 'listHubTools', requestId: 'r2', watch: true });
    assert.equal(changes(sent).length, 1, 'the waiting change went out before the list');
    assert.equal(list.type === 'response' && (list.result as { revision: number }).revision, 1);
    await tick();
    assert.equal(changes(sent).length, 1, 'and not twice');
  });

  it('stops on unwatchHubTools and when the link closes', async () => {
    const { hub, set } = fakeHub([tool('a')]);
    const sent: ExtensionToServer[] = [];
    const feed = new HubCatalogFeed(hub, (message) => sent.push(message));
    feed.answer({ type: 'listHubTools', requestId: 'r1', watch: true });
    feed.answer({ type: 'unwatchHubTools', requestId: 'r2' });
    set([tool('b')]);
    await tick();
    assert.deepEqual(changes(sent), []);
    feed.answer({ type: 'listHubTools', requestId: 'r3', watch: true });
    feed.reset();
    set([tool('c')]);
    await tick();
    assert.deepEqual(changes(sent), []);
    const plain = feed.answer({ type: 'listHubTools', requestId: 'r4' });
    assert.equal(plain.type === 'response' && (plain.result as { revision: number }).revision, 0, 'numbered afresh');
    set([tool('d')]);
    await tick();
    assert.deepEqual(changes(sent), [], 'a list without watch does not subscribe');
  });
});
