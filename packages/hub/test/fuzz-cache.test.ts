import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CACHE_LIMITS, Hub, MemoryHubStore, siteOf } from '@tabmcp/hub';
import { serializedSize, type Tool } from '@tabmcp/protocol';
import fc from 'fast-check';
import { fuzzRuns } from '../../../test-support/fuzz-runs';
import { MemoryTransport } from './memory-transport';

/** Issue 13: however pages register, the cache stays in its bounds and the user's decisions survive. */
const runs = Math.max(20, Math.ceil(fuzzRuns(300) / 10));
const HOSTS = ['a.example', 'b.example', 'c.example', '127.0.0.1', 'localhost'];

const step = fc.oneof(
  fc.record({
    kind: fc.constant('register' as const),
    tab: fc.integer({ min: 1, max: 6 }),
    host: fc.constantFrom(...HOSTS),
    count: fc.integer({ min: 0, max: 120 }),
    size: fc.integer({ min: 0, max: 16_000 }),
    prefix: fc.stringMatching(/^[a-z]{1,3}$/),
  }),
  fc.record({
    kind: fc.constant('decide' as const),
    host: fc.constantFrom(...HOSTS),
    decision: fc.constantFrom('allow' as const, 'block' as const, undefined),
  }),
  fc.record({ kind: fc.constant('close' as const), tab: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('age' as const), days: fc.integer({ min: 0, max: 40 }) }),
);

describe('fuzz: cache growth', () => {
  it('keeps the cache within its limits, of allowed sites only, and the decisions across a restart', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        let clock = 1_000_000_000_000;
        const store = new MemoryHubStore();
        const transport = new MemoryTransport();
        const hub = new Hub({ transport, store, now: () => clock });
        for (const next of steps) {
          if (next.kind === 'register') {
            const tools: Tool[] = Array.from({ length: next.count }, (_, i) => ({
              name: `${next.prefix}${i}`,
              description: '€'.repeat(next.size),
              inputSchema: { type: 'object' },
              annotations: { cache: true },
            }));
            transport.connect(next.tab, `http://${next.host}/p`, tools);
          } else if (next.kind === 'decide') hub.setSiteDecision(next.host, next.decision);
          else if (next.kind === 'close') transport.disconnect(next.tab);
          else clock += next.days * 24 * 3_600_000;
          const cached = store.saved?.cached ?? [];
          assert.ok(cached.length <= CACHE_LIMITS.count);
          assert.ok(serializedSize(cached) <= CACHE_LIMITS.bytes + 1_024);
          const perDomain = new Map<string, number>();
          for (const entry of cached) perDomain.set(entry.domain, (perDomain.get(entry.domain) ?? 0) + 1);
          for (const count of perDomain.values()) assert.ok(count <= CACHE_LIMITS.perDomain);
          for (const entry of cached) assert.equal(hub.siteAccess(entry.url), 'allowed', `${siteOf(entry.url)} cached`);
        }
        const restarted = new Hub({ transport: new MemoryTransport(), store, now: () => clock });
        await restarted.restore([]);
        assert.deepEqual(restarted.sites(), hub.sites());
      }),
      { numRuns: runs },
    );
  });
});
