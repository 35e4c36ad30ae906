import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Serves bench/pages and the built page SDK (/sdk/tabmcp-page.js) on loopback. */
const pagesDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'pages');
const sdkDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'packages', 'page', 'dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

export interface BenchSite {
  url: string;
  close(): Promise<void>;
}

export async function startBenchSite(): Promise<BenchSite> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const [base, rest] = path.startsWith('/sdk/') ? [sdkDir, path.slice(5)] : [pagesDir, path.slice(1)];
    const file = normalize(join(base, rest));
    if (!file.startsWith(base) || !existsSync(file) || statSync(file).isDirectory()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
