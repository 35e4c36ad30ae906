import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { repoRoot } from './harness';

/**
 * Pages for the hub's end-to-end tests, each publishing tools with the page SDK:
 * `whoami` (read-only), `slow` (answers after `ms`; `window.slowsBegun` counts the calls begun, for a test to
 * wait on instead of sleeping), `save_note` (cached: survives its tab). The
 * page changes its own tools: the "Add a tool" button adds `added_by_click`, `dropSaveNote()`
 * withdraws `save_note`; the benchmarks add and remove batches with `addMany(count, prefix)` and
 * `removeMany()`. `/declares.html` is a page whose server declares `browser.cacheSupported`.
 */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Notes</title><script src="/sdk/tabmcp-page.js"></script></head>
<body><h1>Notes</h1><button id="add-tool">Add a tool</button><ul id="notes"></ul><script>
const mcp = new TabMcp.McpWindowProvider({ name: 'notes', version: '1.0.0' });
const label = new URLSearchParams(location.search).get('label') || 'none';
mcp.addTool({ name: 'whoami', description: 'Which page answers', annotations: { readOnlyHint: true },
  inputSchema: { type: 'object', properties: {} },
  outputSchema: { type: 'object', properties: { href: { type: 'string' }, label: { type: 'string' } }, required: ['href'] } },
  () => ({ href: location.href, label }));
mcp.addTool({ name: 'slow', description: 'Answers after ms milliseconds',
  inputSchema: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] } },
  ({ ms }) => { window.slowsBegun = (window.slowsBegun || 0) + 1; return new Promise((done) => setTimeout(() => done({ waited: ms }), ms)); });
const saveNote = mcp.addTool({ name: 'save_note', description: 'Saves a note on this page', annotations: { cache: true },
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
  ({ text }) => { const li = document.createElement('li'); li.textContent = text; document.getElementById('notes').append(li);
    return { saved: text, href: location.href }; });
window.dropSaveNote = () => saveNote.remove();
document.getElementById('add-tool').addEventListener('click', () => mcp.addTool({ name: 'added_by_click',
  description: 'Added when the user clicked', inputSchema: { type: 'object', properties: {} } }, () => ({ clicked: true })),
  { once: true });
const bulk = [];
window.addMany = (count, prefix) => { for (let i = 0; i < count; i++) bulk.push(mcp.addTool({ name: prefix + '_' + i,
  description: 'Bulk tool ' + i, inputSchema: { type: 'object', properties: { n: { type: 'number' } } } }, () => ({ i }))); };
window.removeMany = () => { for (const registration of bulk.splice(0)) registration.remove(); };
mcp.exposeOnWindow();
TabMcp.serveTab(mcp);
</script></body></html>`;

/** A page whose server declares docs/requirements.md#hub's `browser.cacheSupported` at initialize, with no cached tool. */
const DECLARES_CACHING = `<!doctype html>
<html><head><meta charset="utf-8"><title>Declares</title><script src="/sdk/tabmcp-page.js"></script></head>
<body><h1>Declares caching</h1><script>
const mcp = new TabMcp.McpWindowProvider({ name: 'declares', version: '1.0.0' });
mcp.addTool({ name: 'whoami', description: 'Which page answers', inputSchema: { type: 'object', properties: {} } },
  () => ({ href: location.href }));
TabMcp.serveTab({
  listTools: () => mcp.listTools(),
  callTool: (call) => mcp.callTool(call),
  getServerInfo: () => mcp.getServerInfo(),
  getCapabilities: async () => ({ ...(await mcp.getCapabilities()), browser: { cacheSupported: true } }),
  addEventListener: (...args) => mcp.addEventListener(...args),
  removeEventListener: (...args) => mcp.removeEventListener(...args),
  dispatchEvent: (event) => mcp.dispatchEvent(event),
});
</script></body></html>`;

export interface HubSite {
  /** http://<host>:<port> for a host that resolves to this server. */
  url(host: string): string;
  close(): Promise<void>;
}

export async function startHubSite(bindHost = '127.0.0.1'): Promise<HubSite> {
  const sdk = readFileSync(join(repoRoot, 'packages', 'page', 'dist', 'tabmcp-page.js'));
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/sdk/tabmcp-page.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk);
    } else if (path === '/notes.html' || path === '/declares.html') {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(path === '/notes.html' ? PAGE : DECLARES_CACHING);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, bindHost, done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: (host) => `http://${host}:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
