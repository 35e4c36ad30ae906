import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Tool } from '@tabmcp/protocol';
import { HubCatalog } from '../src/views/hub-catalog';

const tool = (name: string, description = name): Tool => ({
  name: `website_tool_shop_test_tab1_${name}`,
  description,
  inputSchema: { type: 'object' },
});
const names = (catalog: HubCatalog) =>
  catalog.tools().map((entry) => entry.name.replace('website_tool_shop_test_tab1_', ''));

describe("the all view's copy of the hub list: a whole list, then changes (issue 24, item 4)", () => {
  it('lays changes on the list: changed tools replace, removed ones go, foreign names never enter', () => {
    const catalog = new HubCatalog();
    catalog.listAsked();
    catalog.listArrived({ tools: [tool('a'), tool('b')], revision: 0 });
    catalog.changed({
      type: 'hubToolsChanged',
      revision: 1,
      changed: [tool('b', 'new'), tool('c')],
      removed: [tool('a').name],
    });
    assert.deepEqual(names(catalog), ['b', 'c']);
    assert.equal(catalog.get(tool('b').name)?.description, 'new');
    catalog.changed({
      type: 'hubToolsChanged',
      revision: 2,
      changed: [{ name: 'list_tabs', inputSchema: { type: 'object' } }],
      removed: [],
    });
    assert.equal(catalog.get('list_tabs'), undefined, 'only hub names: nothing can pass for a core tool');
  });

  it('a change heard before the list that predates it is laid on top again; an older one is not', () => {
    const catalog = new HubCatalog();
    catalog.listAsked();
    // The extension sent: change 1 (b added), the list (revision 1, with b), change 2 (c added).
    // The list's answer is a promise, so change 2 can be heard before it.
    catalog.changed({ type: 'hubToolsChanged', revision: 1, changed: [tool('b')], removed: [] });
    catalog.changed({ type: 'hubToolsChanged', revision: 2, changed: [tool('c')], removed: [] });
    catalog.listArrived({ tools: [tool('a'), tool('b')], revision: 1 });
    assert.deepEqual(names(catalog), ['a', 'b', 'c'], 'change 2 survives the older list');

    catalog.changed({ type: 'hubToolsChanged', revision: 3, changed: [], removed: [tool('c').name] });
    catalog.listAsked();
    catalog.listArrived({ tools: [tool('a')], revision: 4 });
    assert.deepEqual(names(catalog), ['a'], 'changes before a newer list are not laid again');
  });

  it('forgets changes of a link that dropped, whose numbers the next link starts again', () => {
    const catalog = new HubCatalog();
    catalog.listAsked();
    catalog.changed({ type: 'hubToolsChanged', revision: 7, changed: [tool('old')], removed: [] });
    catalog.linkDown();
    catalog.listFailed();
    catalog.listAsked();
    catalog.listArrived({ tools: [tool('a')], revision: 0 });
    assert.deepEqual(names(catalog), ['a']);
  });
});
