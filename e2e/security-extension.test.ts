import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXTENSION_ORIGIN, type ExtensionToServer, MAX_TOOLS_PER_TAB, type Tool } from '@tabmcp/protocol';
import type { BrowserContext } from 'playwright-core';
import { WebSocketServer } from 'ws';
import { LinkEndpoint } from '../packages/server/src/link/link-endpoint';
import { WebSocketBrowserLink } from '../packages/server/src/link/websocket-browser-link';
import { launchWithExtension } from '../test-support/extension-browser';
import { freePort, repoRoot, waitFor } from '../test-support/harness';

/**
 * Issue 13, in the layer where the fixes live: the real extension in real Chromium.
 * Finding 3 (port squatting), 12 (about: pages), 13 (silent drops of large answers and lists).
 */
const PAGE = (script: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Big</title>
<script src="/sdk/tabmcp-page.js"></script></head><body><script>
const mcp = new TabMcp.McpWindowProvider({ name: 'big', version: '1.0.0' });
${script}
TabMcp.serveTab(mcp);
</script></body></html>`;

const BIG = PAGE(`
mcp.addTool({ name: 'huge', description: 'A 5 MB answer', inputSchema: { type: 'object', properties: {} } },
  () => ({ text: '€'.repeat(1_700_000) }));
mcp.addTool({ name: 'long_error', description: 'Fails with 200 KB of text', inputSchema: { type: 'object', properties: {} } },
  () => { throw new Error('x'.repeat(200_000)); });
mcp.addTool({ name: 'small', description: 'Answers', inputSchema: { type: 'object', properties: {} } }, () => ({ ok: true }));
`);
// A hand-written window.mcp (no SDK): its thrown error crosses the Port as the error text itself.
const ERRORS = `<!doctype html><html><head><meta charset="utf-8"><title>Errors</title></head><body><script>
const mcp = new EventTarget();
Object.assign(mcp, {
  getServerInfo: async () => ({ name: 'errors', version: '1.0.0' }),
  getCapabilities: async () => ({ tools: {} }),
  listTools: async () => ({ tools: [{ name: 'long_error', description: 'Fails with 200 KB of text',
    inputSchema: { type: 'object', properties: {} } }] }),
  callTool: async () => { throw new Error('x'.repeat(200000)); },
  listResources: async () => ({ resources: [] }),
  readResource: async () => { throw new Error('none'); },
  listPrompts: async () => ({ prompts: [] }),
  getPrompt: async () => { throw new Error('none'); },
});
window.mcp = mcp;
</script></body></html>`;
const MANY = PAGE(`
for (let i = 0; i < 10000; i++) mcp.addTool({ name: 't' + i, description: 'Tool ' + i,
  inputSchema: { type: 'object', properties: {} } }, () => ({ i }));
`);

describe('security: the extension (issue 13)', () => {
  let dir: string;
  let context: BrowserContext;
  let site: Server;
  let siteUrl: string;
  let port: number;
  const token = randomBytes(24).toString('base64url');
  const squatted: Array<{ url: string; frames: string[] }> = [];
  let link: WebSocketBrowserLink | undefined;
  const endpoint = new LinkEndpoint();
  const events: ExtensionToServer[] = [];

  before(async () => {
    const sdk = readFileSync(join(repoRoot, 'packages', 'page', 'dist', 'tabmcp-page.js'));
    site = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      if (path === '/sdk/tabmcp-page.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk);
      else if (path === '/big.html') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(BIG);
      else if (path === '/errors.html')
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ERRORS);
      else if (path === '/many.html') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(MANY);
      else response.writeHead(404).end();
    });
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    const address = site.address();
    siteUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    port = await freePort();
    dir = mkdtempSync(join(tmpdir(), 'tabmcp-security-'));
    const extensionDir = join(dir, 'extension');
    cpSync(join(repoRoot, 'packages', 'extension', 'dist'), extensionDir, { recursive: true });
    writeFileSync(join(extensionDir, 'config.json'), JSON.stringify({ port, token }));
    endpoint.on('event', (event) => events.push(event as ExtensionToServer));
  });

  after(async () => {
    await context?.close().catch(() => {});
    await link?.close();
    await new Promise<void>((done) => {
      site?.closeAllConnections();
      site?.close(() => done());
    });
    rmSync(dir, { recursive: true, force: true });
  });

  it('a process squatting the port gets neither the token nor any tab, and cannot run anything (finding 3)', async () => {
    // Whoever binds the port first, with no token: it answers the extension's hello with a made-up
    // proof and then asks for a tab, as a hostile local process would.
    const squatter = new WebSocketServer({ host: '127.0.0.1', port });
    squatter.on('connection', (socket, request) => {
      const seen = { url: request.url ?? '', frames: [] as string[] };
      squatted.push(seen);
      socket.on('message', (data) => {
        seen.frames.push(data.toString());
        socket.send(JSON.stringify({ type: 'authChallenge', nonce: 'a'.repeat(64), proof: 'b'.repeat(64) }));
        socket.send(JSON.stringify({ type: 'openTab', requestId: 'x', url: `${siteUrl}/pwned`, focus: true }));
        socket.send(JSON.stringify({ type: 'connect', requestId: 'y' }));
      });
    });
    context = await launchWithExtension(join(dir, 'profile'), join(dir, 'extension'));
    await waitFor(() => squatted.filter((seen) => seen.frames.length > 0).length >= 2, 20_000, 'two dials');
    await new Promise<void>((done) => squatter.close(() => done()));
    for (const client of squatter.clients) client.terminate();
    for (const seen of squatted) {
      assert.doesNotMatch(seen.url, /token/, 'the token is not in the URL');
      for (const frame of seen.frames) {
        assert.ok(!frame.includes(token), 'the token is never sent');
        assert.equal((JSON.parse(frame) as { type: string }).type, 'authHello', `only the hello is sent: ${frame}`);
      }
    }
    assert.ok(!context.pages().some((page) => page.url().includes('/pwned')), 'nothing was run');

    // The real tabmcp, holding the token, gets the link.
    link = new WebSocketBrowserLink({ host: '127.0.0.1', port, allowedOrigins: [EXTENSION_ORIGIN], token });
    await link.start();
    link.attachEndpoint(endpoint);
    assert.ok(await endpoint.waitUntilUp(20_000), 'the extension authenticated with the real server');
  });

  it('opens about:blank but never about:settings, about:flags or about:extensions (finding 12)', async () => {
    for (const url of ['about:settings', 'about:flags', 'about:extensions', 'chrome://settings']) {
      await assert.rejects(endpoint.openTab(url, false, 0), /Refusing to open/);
    }
    const blank = await endpoint.openTab('about:blank', false, 0);
    assert.equal(blank.tab.url, 'about:blank');
    assert.ok(!context.pages().some((page) => page.url().startsWith('chrome://')));
  });

  it('a 5 MB result and a 200 KB error come back as clear errors at once (findings 2, 13)', async () => {
    const opened = await endpoint.openTab(`${siteUrl}/big.html`, true, 10_000);
    const tabId = opened.tab.id;
    await waitFor(
      () =>
        (opened.tab.tools?.length ?? 0) > 0 ||
        events.some((e) => e.type === 'toolsChanged' && e.tabId === tabId && e.tools.length > 0),
      10_000,
      'the page tools',
    );
    // Timeouts of 25 s: an answer well within them is the size check speaking, not a timer.
    const started = Date.now();
    await assert.rejects(endpoint.callTool(tabId, 'huge', {}, 25_000), /bytes, over the \d+-byte limit/);
    const errors = await endpoint.openTab(`${siteUrl}/errors.html`, true, 10_000);
    await waitFor(
      () =>
        errors.tab.tools?.length ||
        events.some((e) => e.type === 'toolsChanged' && e.tabId === errors.tab.id && e.tools.length > 0),
      10_000,
      'the hand-written tools',
    );
    const longError = await endpoint.callTool(errors.tab.id, 'long_error', {}, 25_000).then(
      (result) => JSON.stringify(result),
      (error: Error) => error.message,
    );
    assert.match(longError, /xxxx/);
    assert.ok(longError.length < 70_000, 'the text was cut, not dropped');
    assert.ok(Date.now() - started < 20_000, 'neither waited for a timeout');
    const small = await endpoint.callTool(tabId, 'small', {}, 25_000);
    assert.notEqual(small.isError, true, `the link is still up: ${JSON.stringify(small)}`);
  });

  it('a page with 10,000 tools gets the first MAX_TOOLS_PER_TAB, not zero (finding 13)', async () => {
    const opened = await endpoint.openTab(`${siteUrl}/many.html`, true, 15_000);
    const tabId = opened.tab.id;
    const listed = await waitFor(
      () => {
        const last = events
          .filter(
            (e): e is Extract<ExtensionToServer, { tools: Tool[] }> =>
              (e.type === 'toolsChanged' || e.type === 'tabFocused') && e.tabId === tabId,
          )
          .at(-1);
        return last && last.tools.length > 0 ? last.tools : undefined;
      },
      15_000,
      'the tools of the 10,000-tool page',
    );
    assert.equal(listed.length, MAX_TOOLS_PER_TAB);
  });
});
