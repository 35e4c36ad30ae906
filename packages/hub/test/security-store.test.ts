import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hub, MemoryHubStore } from '@tabmcp/hub';
import { MemoryTransport, tool } from './memory-transport';

/**
 * Issue 26, low: what reaches the disk. The attacker is a page on a site the user never allowed: its
 * tools and full URL (derived page text included) were saved, and every change rewrote the snapshot.
 */
describe('security: the hub store (issue 26)', () => {
  it("a site not allowed leaves neither its tools nor its URL's path and query on disk", () => {
    const store = new MemoryHubStore();
    const transport = new MemoryTransport();
    new Hub({ transport, store });
    transport.connect(1, 'https://evil.example/account?email=ada%40example.com', [tool('secret_from_page_text')]);
    transport.connect(2, 'http://127.0.0.1:8080/shop/?q=mugs', [tool('search')]);
    const saved = JSON.stringify(store.saved);
    assert.doesNotMatch(saved, /secret_from_page_text|ada%40example|\/account/);
    const evil = store.saved?.tabs.find((tab) => tab.tabId === 1);
    assert.deepEqual([evil?.url, evil?.tools], ['https://evil.example/', []]);
    const shop = store.saved?.tabs.find((tab) => tab.tabId === 2);
    assert.deepEqual(
      [shop?.url, shop?.tools.map((entry) => entry.name)],
      ['http://127.0.0.1:8080/shop/?q=mugs', ['search']],
    );
  });

  it('a change that changes nothing stored writes nothing', () => {
    const store = new MemoryHubStore();
    const transport = new MemoryTransport();
    new Hub({ transport, store });
    transport.connect(1, 'http://127.0.0.1:8080/shop/', [tool('search')]);
    const before = store.saves;
    for (let i = 0; i < 50; i++) transport.update(1, [tool('search')]);
    assert.equal(store.saves, before, 'the same tools again are not written again');
    transport.update(1, [tool('search'), tool('cart')]);
    assert.equal(store.saves, before + 1);
  });
});
