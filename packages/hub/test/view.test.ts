import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SitePolicy, type TabTools } from '@tabmcp/hub';
import type { Tool } from '@tabmcp/protocol';
import { buildView, type HubViewState, type ViewTab, viewSignature } from '../src/view';
import { tool } from './memory-transport';

const SHOP = 'http://127.0.0.1:8080/shop/';
const BLOG = 'http://localhost:9090/blog/';
const PENDING = 'https://pending.example/app';
const cacheMark: Partial<Tool> = { annotations: { cache: true } };

function tab(tabId: number, url: string, tools: Tool[], extra: Partial<TabTools> = {}): ViewTab {
  return { tabId, url, domain: new URL(url).host, ordinal: 1, tools, capabilities: undefined, ...extra };
}

/** Plain state: loopback allowed, other sites pending unless decided, no tab active, caching possible. */
function state(partial: Partial<HubViewState> & { decisions?: Array<[string, 'allow' | 'block']> } = {}): HubViewState {
  const policy = new SitePolicy(partial.decisions ?? []);
  return {
    tabs: [],
    cached: [],
    siteAccess: (url) => policy.access(url),
    activeTabId: undefined,
    canCache: true,
    ...partial,
  };
}

const names = (tools: Tool[]) => tools.map((entry) => entry.name);

describe('hub view: a pure function of the hub state', () => {
  it('lists tabs by domain then tab number, whatever order they come in, without changing its input', () => {
    const tabs = Object.freeze([
      tab(7, SHOP, [tool('b'), tool('a')], { ordinal: 2 }),
      tab(3, BLOG, [tool('read')]),
      tab(5, SHOP, [tool('a')]),
    ]);
    // Cached tools of a site not allowed: in the state, not in the view.
    const cached = Object.freeze([
      { domain: 'z.example', url: 'https://z.example/', tool: tool('z', cacheMark), savedAt: 1 },
      { domain: 'a.example', url: 'https://a.example/', tool: tool('a', cacheMark), savedAt: 2 },
    ]);
    const view = buildView(state({ tabs, cached }));
    assert.deepEqual(names(view.tools), [
      'website_tool_127_0_0_1_8080_tab1_a',
      'website_tool_127_0_0_1_8080_tab2_b',
      'website_tool_127_0_0_1_8080_tab2_a',
      'website_tool_localhost_9090_tab1_read',
    ]);
    assert.deepEqual(view.routes.get('website_tool_127_0_0_1_8080_tab2_a'), {
      domain: '127.0.0.1:8080',
      toolName: 'a',
      tabId: 7,
    });
    assert.equal(view.routes.size, 4);
    assert.deepEqual(buildView(state({ tabs: [...tabs].reverse(), cached })), view, 'the same state, the same view');
  });

  it('marks each description with its origin and tab, and the active tab only', () => {
    const tabs = [tab(1, SHOP, [tool('a')]), tab(2, SHOP, [tool('a')], { ordinal: 2 })];
    const view = buildView(state({ tabs, activeTabId: 2 }));
    assert.deepEqual(
      view.tools.map((entry) => entry.description),
      ['[page http://127.0.0.1:8080, tab 1] The a tool', '[page http://127.0.0.1:8080, tab 2 • active] The a tool'],
    );
    assert.notEqual(viewSignature(view), viewSignature(buildView(state({ tabs, activeTabId: 1 }))));
  });

  it('holds back the tools of sites not allowed (pending, blocked, not web) and their cached tools', () => {
    const tabs = [
      tab(1, SHOP, [tool('a')]),
      tab(2, PENDING, [tool('p')]),
      tab(3, BLOG, [tool('read')]),
      { ...tab(4, SHOP, [tool('x')]), url: 'file:///etc/passwd', domain: undefined },
    ];
    const cached = [{ domain: 'pending.example', url: PENDING, tool: tool('kept', cacheMark), savedAt: 1 }];
    const blocked = buildView(state({ tabs, cached, decisions: [['localhost', 'block']] }));
    assert.deepEqual(names(blocked.tools), ['website_tool_127_0_0_1_8080_tab1_a']);
    assert.deepEqual([...blocked.routes.keys()], names(blocked.tools), 'nothing held back can be called by name');
    const allowed = buildView(state({ tabs, cached, decisions: [['pending.example', 'allow']] }));
    assert.deepEqual(names(allowed.tools), [
      'website_tool_127_0_0_1_8080_tab1_a',
      'website_tool_localhost_9090_tab1_read',
      'website_tool_pending_example_tab1_p',
      'website_tool_pending_example_kept',
    ]);
  });

  it('lists a cached tool only while no open tab of its domain offers it, routed to no tab', () => {
    const cached = [{ domain: '127.0.0.1:8080', url: `${SHOP}?q=1`, tool: tool('save', cacheMark), savedAt: 1 }];
    const open = buildView(state({ tabs: [tab(1, SHOP, [tool('save', cacheMark)])], cached }));
    assert.deepEqual(names(open.tools), ['website_tool_127_0_0_1_8080_tab1_save']);
    const closed = buildView(state({ tabs: [tab(1, SHOP, [tool('other')])], cached }));
    assert.deepEqual(names(closed.tools), [
      'website_tool_127_0_0_1_8080_tab1_other',
      'website_tool_127_0_0_1_8080_save',
    ]);
    assert.equal(
      closed.tools[1]?.description,
      `[page http://127.0.0.1:8080, cached, no open tab; a call opens ${SHOP}?q=1] The save tool`,
    );
    assert.deepEqual(closed.routes.get('website_tool_127_0_0_1_8080_save'), {
      domain: '127.0.0.1:8080',
      toolName: 'save',
      tabId: undefined,
    });
  });

  it('caps: caching only when the hub can cache and an allowed page or a cached tool needs it; never elicitation', () => {
    const declares = tab(1, SHOP, [tool('a')], { capabilities: { cacheSupported: true } });
    const marks = tab(2, PENDING, [tool('a', cacheMark)]);
    const caps = (partial: Partial<HubViewState> & { decisions?: Array<[string, 'allow' | 'block']> }) =>
      buildView(state(partial)).capabilities;
    assert.deepEqual(caps({}), { multiTabSupport: true, cacheSupported: false, elicitation: false });
    assert.equal(caps({ tabs: [declares] }).cacheSupported, true, 'an allowed page declares it');
    assert.equal(caps({ tabs: [declares], canCache: false }).cacheSupported, false, 'no store or no opener');
    assert.equal(caps({ tabs: [marks] }).cacheSupported, false, 'a page of a site not allowed counts for nothing');
    assert.equal(caps({ tabs: [marks], decisions: [['pending.example', 'allow']] }).cacheSupported, true);
    const cached = [{ domain: 'a.example', url: 'https://a.example/', tool: tool('k', cacheMark), savedAt: 1 }];
    assert.equal(caps({ cached }).cacheSupported, true, 'a kept cached tool');
    assert.equal(caps({ tabs: [declares], cached }).elicitation, false);
    const [withCache, without] = [
      buildView(state({ tabs: [declares] })),
      buildView(state({ tabs: [declares], canCache: false })),
    ];
    assert.deepEqual(withCache.tools, without.tools);
    assert.notEqual(viewSignature(withCache), viewSignature(without), 'a change of capabilities alone is announced');
  });
});
