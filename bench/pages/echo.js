// The bench page: one trivial tool for latency, one slow tool for fault tests, and the floor's raw echo.
window.benchEcho = (text) => ({ text });

const bench = new TabMcp.McpWindowProvider({ name: 'tabmcp-bench', version: '1.0.0' });
bench.addTool(
  {
    name: 'echo',
    description: 'Returns its text argument unchanged.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    // Read-only: answered at once, not held for a navigation (docs/dom-tools.md, "After a navigation").
    annotations: { readOnlyHint: true },
  },
  ({ text }) => window.benchEcho(text),
);
// The same without annotations, as most tools sites publish: the common case bench/tools-call.ts measures.
bench.addTool(
  {
    name: 'echo_plain',
    description: 'Returns its text argument unchanged (no annotations).',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  ({ text }) => window.benchEcho(text),
);
bench.addTool(
  {
    name: 'wait',
    description: 'Answers after ms milliseconds (at most 10,000).',
    inputSchema: {
      type: 'object',
      properties: { ms: { type: 'integer', minimum: 0, maximum: 10000 } },
      required: ['ms'],
    },
  },
  // The count of waits begun lets a test see that a call reached the page, instead of sleeping on it.
  ({ ms }) => {
    window.waitsBegun = (window.waitsBegun ?? 0) + 1;
    return new Promise((done) => setTimeout(() => done({ waited: ms }), ms));
  },
);
bench.exposeOnWindow();
TabMcp.serveTab(bench);

// The floor path ends here: the floor extension's content script posts a ping, the page posts the pong back.
window.addEventListener('message', (event) => {
  if (event.source !== window || event.data?.floor !== 'ping') return;
  window.postMessage({ floor: 'pong', n: event.data.n }, location.origin);
});
