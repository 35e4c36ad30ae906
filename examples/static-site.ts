import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  // Images the corpus pages show (test-support/corpus): an <img> of SVG is drawn only when served as SVG.
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** URL paths under `prefix` (ending in '/') are served from `dir`. */
export interface Mount {
  prefix: string;
  dir: string;
}

export interface StaticSite {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves folders on loopback, uncached, for the demo, the tests and the benchmarks; the first mount
 * whose prefix matches wins, and a folder serves its index.html.
 */
export async function startStaticSite(mounts: Mount[], port = 0, host = '127.0.0.1'): Promise<StaticSite> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const mount = mounts.find((candidate) => path.startsWith(candidate.prefix));
    if (!mount) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    let file = normalize(join(mount.dir, path.slice(mount.prefix.length)));
    if (!file.startsWith(mount.dir)) {
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
    close: () =>
      new Promise((done) => {
        // Browsers keep connections open; without this, close would wait for them.
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
