import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PROFILE_STORAGE_POOL_BYTES } from '../packages/server/src/launcher/profile-root';
import { startTabmcp, type TabmcpUnderTest, textOf } from '../test-support/harness';

const MiB = 1024 ** 2;

/**
 * Issue 26, medium: a page (any site, allowed or not, in a background tab) fills the launched
 * browser's storage, and with the profile in /dev/shm, the machine's memory: it wrote 1 GiB in 6 s.
 * The launched profile's storage pool is bounded whatever file system it is on.
 */
describe("security: a page cannot fill the launched profile's storage (issue 26)", () => {
  let tabmcp: TabmcpUnderTest;
  let site: Server;
  let url: string;
  before(async () => {
    site = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<title>filler</title>'),
    );
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    tabmcp = await startTabmcp(['--launch']);
    const connected = await tabmcp.call('connect_browser');
    assert.notEqual(connected.isError, true, textOf(connected));
  });
  after(async () => {
    await tabmcp?.close();
    await new Promise((done) => site?.close(done));
  });

  it('writes past the bound fail with QuotaExceededError, long before 1 GiB', async () => {
    const browser = await tabmcp.cdp();
    const [context] = browser.contexts();
    assert.ok(context);
    const page = await context.newPage();
    await page.goto(url);
    const outcome = await page.evaluate(async (chunks) => {
      const cache = await caches.open('fill');
      const chunk = new Uint8Array(16 * 1024 * 1024);
      for (let i = 0; i < chunks; i++) {
        try {
          await cache.put(`/chunk-${i}`, new Response(chunk));
        } catch (error) {
          return { written: i * chunk.length, error: (error as Error).name };
        }
      }
      return { written: chunks * chunk.length, error: undefined };
    }, 64);
    await clearCaches(page);
    assert.equal(outcome.error, 'QuotaExceededError', `wrote ${outcome.written / MiB} MiB with no error`);
    assert.ok(outcome.written <= PROFILE_STORAGE_POOL_BYTES, `wrote ${outcome.written / MiB} MiB`);
  });
});

/** The profile goes with the browser; freeing the memory now keeps the machine's other tests unaffected. */
async function clearCaches(page: import('playwright-core').Page): Promise<void> {
  await page.evaluate(() => caches.delete('fill')).catch(() => {});
}
