import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Hub } from '@tabmcp/hub';
import type { CallToolResult } from '@tabmcp/protocol';

/** A chrome event that counts who listens. */
function countedEvent() {
  const listeners = new Set<(...args: unknown[]) => void>();
  const counts = { added: 0, removed: 0 };
  return {
    counts,
    fire: (...args: unknown[]) => {
      for (const listener of listeners) listener(...args);
    },
    addListener: (listener: (...args: unknown[]) => void) => {
      counts.added++;
      listeners.add(listener);
    },
    removeListener: (listener: (...args: unknown[]) => void) => {
      counts.removed++;
      listeners.delete(listener);
    },
  };
}

const events = {
  onBeforeNavigate: countedEvent(),
  onCommitted: countedEvent(),
  onErrorOccurred: countedEvent(),
  onUpdated: countedEvent(),
  onRemoved: countedEvent(),
  onChanged: countedEvent(),
  onCreatedNavigationTarget: countedEvent(),
};
let storageReads = 0;
let storedMode: unknown = 'synthetic';

before(() => {
  // The parts of the extension API the call path touches; each event counts its listeners.
  (globalThis as { chrome?: unknown }).chrome = {
    webNavigation: {
      onBeforeNavigate: events.onBeforeNavigate,
      onCommitted: events.onCommitted,
      onErrorOccurred: events.onErrorOccurred,
      onCreatedNavigationTarget: events.onCreatedNavigationTarget,
    },
    tabs: {
      onUpdated: events.onUpdated,
      onRemoved: events.onRemoved,
      get: async (id: number) => ({ id, url: 'https://example.test/opened', title: 'Opened' }),
    },
    storage: {
      onChanged: events.onChanged,
      local: {
        get: async (key: string) => {
          storageReads++;
          return { [key]: storedMode };
        },
      },
    },
  };
});

/**
 * Issue 24, a page tool call's cost in the worker (docs/decisions.md 191): each call used to add and
 * remove four chrome listeners and read the input mode from storage, each a round trip to the
 * browser process, half of the worker's busy time per call. These fail if that comes back.
 */
describe('a page tool call makes no browser round trip of its own in the worker', () => {
  it('the navigation watch adds its chrome listeners once, not per call, and removes none', async () => {
    const { callToolReportingNavigation } = await import('../src/background/navigation-report');
    const answer: CallToolResult = { content: [{ type: 'text', text: 'x' }] };
    const hub = { callTool: async () => answer, tabs: () => [], toolsOf: () => [] } as unknown as Hub;
    for (let call = 0; call < 3; call++) {
      const result = await callToolReportingNavigation(hub, 1, 'echo', {}, undefined);
      assert.deepEqual(result.content, answer.content);
    }
    for (const name of ['onBeforeNavigate', 'onCommitted', 'onErrorOccurred', 'onUpdated', 'onRemoved'] as const) {
      assert.equal(events[name].counts.added, 1, `${name}: added once for three calls`);
      assert.equal(events[name].counts.removed, 0, `${name}: never removed`);
    }
    // A navigation heard while no call waits reaches no watch and throws nothing.
    events.onBeforeNavigate.fire({ tabId: 1, frameId: 0, url: 'https://example.test/' });
  });

  it('the opened-tabs watch adds its chrome listener once, not per call, and still hears its own tab', async () => {
    const { reportingOpenedTabs } = await import('../src/background/opened-tabs');
    const answer: CallToolResult = { content: [{ type: 'text', text: '{"clicked":true}' }] };
    for (let call = 0; call < 3; call++) assert.deepEqual(await reportingOpenedTabs(1, async () => answer), answer);
    const opening = reportingOpenedTabs(1, async () => {
      events.onCreatedNavigationTarget.fire({ sourceTabId: 2, tabId: 8, url: 'https://example.test/other' });
      events.onCreatedNavigationTarget.fire({ sourceTabId: 1, tabId: 9, url: 'https://example.test/opened' });
      return answer;
    });
    const [first] = (await opening).content;
    const text = first?.type === 'text' ? String(first.text) : '{}';
    const { openedTabs } = JSON.parse(text) as { openedTabs: Array<{ id: number }> };
    assert.deepEqual(
      openedTabs.map((tab) => tab.id),
      [9],
      "the tab its own page opened, not another tab's",
    );
    assert.equal(events.onCreatedNavigationTarget.counts.added, 1, 'added once for four calls');
    assert.equal(events.onCreatedNavigationTarget.counts.removed, 0, 'never removed');
  });

  it('the input mode is read from storage once, then kept current by storage.onChanged', async () => {
    const { inputMode } = await import('../src/background/input-mode');
    assert.equal(await inputMode(), 'synthetic');
    assert.equal(await inputMode(), 'synthetic');
    assert.equal(storageReads, 1, 'one read for two calls');
    storedMode = 'trusted';
    events.onChanged.fire({ inputMode: { newValue: 'trusted' } }, 'local');
    assert.equal(await inputMode(), 'trusted', 'the options page’s change is seen');
    assert.equal(storageReads, 1, 'without reading storage again');
  });
});
