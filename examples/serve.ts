import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StaticSite, startStaticSite } from './static-site';

/** Serves the demo sites of examples/ and the page SDK script on loopback, for the demo and the tests. */
const here = dirname(fileURLToPath(import.meta.url));
const sdkDir = resolve(here, '..', 'packages', 'page', 'dist');
// MCP-B's published scripts, for the interop examples (pages built on @mcp-b/global, the WebMCP polyfill).
const mcpbDir = resolve(here, '..', 'node_modules', '@mcp-b');

export type ExampleServer = StaticSite;

export function startExampleServer(port = 0, host = '127.0.0.1'): Promise<ExampleServer> {
  return startStaticSite(
    [
      { prefix: '/sdk/', dir: sdkDir },
      { prefix: '/vendor/mcp-b/', dir: mcpbDir },
      { prefix: '/', dir: here },
    ],
    port,
    host,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = await startExampleServer(Number(process.env.PORT ?? 8080));
  process.stderr.write(`Demo sites at ${server.url}/shop/\n`);
}
