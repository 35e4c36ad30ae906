import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startExampleServer } from './serve';

/**
 * What an agent does with tabmcp, step by step: connect (launching Chromium with the extension),
 * open the demo shop, see its tools appear, call them. Pass --headed to watch in a window.
 */
const headed =
  process.argv.includes('--headed') || (process.env.DISPLAY !== undefined && !process.argv.includes('--headless'));
const site = await startExampleServer();
const args = ['packages/server/dist/tabmcp.js', ...(headed ? [] : ['--headless'])];
const client = new Client({ name: 'tabmcp-demo-agent', version: '1.0.0' });
client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
  const { tools } = await client.listTools();
  say(`  ← tools/list_changed: now ${tools.map((tool) => tool.name).join(', ')}`);
});
await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function call(name: string, input: Record<string, unknown> = {}): Promise<CallToolResult> {
  say(`→ ${name} ${JSON.stringify(input)}`);
  const started = performance.now();
  const result = (await client.callTool({ name, arguments: input })) as CallToolResult;
  const text = result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
  say(
    `  ${result.isError ? '✗' : '✓'} ${(performance.now() - started).toFixed(1)} ms: ${text.replace(/\s+/g, ' ').slice(0, 300)}`,
  );
  return result;
}

try {
  say(`tabmcp demo (${headed ? 'headed' : 'headless'}); demo shop at ${site.url}/shop/`);
  say(`  tools at start: ${(await client.listTools()).tools.map((tool) => tool.name).join(', ')}`);
  const connected = await call('connect_browser', { launch: true });
  if (connected.isError) process.exitCode = 1;
  else {
    await call('open_tab', { url: `${site.url}/shop/` });
    await new Promise((done) => setTimeout(done, 100));
    await call('search_products', { query: 'mug' });
    await call('add_to_cart', { productId: 'p1', quantity: 2 });
    await call('get_cart');
    await call('add_to_cart', { quantity: 'lots' });
    await call('list_tabs');
    await call('close_tab');
  }
} finally {
  await client.close();
  await site.close();
}
