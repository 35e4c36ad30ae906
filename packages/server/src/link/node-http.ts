import { createRequire } from 'node:module';

/**
 * `node:http`, loaded with `require`. An ESM `import` of it makes Node 22 build the module's ESM
 * facade, which reads every export, lazy ones included: `WebSocket`, `MessageEvent` and
 * `CloseEvent` load undici, and with it tls, http2, zlib and worker_threads. That is ~10 MiB
 * resident on Node 22.23 (55.7 vs 45.8 MiB for a script that only loads http; Node 20: no
 * difference), a sixth of the server's 60 MiB bar (docs/decisions.md, 128). The link needs
 * only `createServer`.
 */
export const { createServer } = createRequire(import.meta.url)('node:http') as typeof import('node:http');
