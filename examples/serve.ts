import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Serves the demo sites of examples/ and the page SDK script on loopback, for the demo and the tests. */
const here = dirname(fileURLToPath(import.meta.url));
const sdkDir = resolve(here, '..', 'packages', 'page', 'dist');
// MCP-B's published scripts, for the interop examples (pages built on @mcp-b/global, the WebMCP polyfill).
const mcpbDir = resolve(here, '..', 'node_modules', '@mcp-b');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
};

export interface ExampleServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startExampleServer(port = 0, host = '127.0.0.1'): Promise<ExampleServer> {
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const [base, rest] = path.startsWith('/sdk/')
      ? [sdkDir, path.slice(5)]
      : path.startsWith('/vendor/mcp-b/')
        ? [mcpbDir, path.slice(14)]
        : [here, path.slice(1)];
    let file = normalize(join(base, rest));
    if (!file.startsWith(base)) {
      response.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(port, host, done));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host}:${actualPort}`,
    port: actualPort,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = await startExampleServer(Number(process.env.PORT ?? 8080));
  process.stderr.write(`Demo sites at ${server.url}/shop/\n`);
}
