import { createRequire } from 'node:module';

/**
 * `node:util`, loaded with `require` (as link/node-http.ts loads `node:http`). An ESM `import` makes
 * Node 22 build the module's ESM facade, which reads every export, lazy ones included, and so loads
 * worker_threads, the assert diff and the SIGINT tracer: ~1 MiB resident on Node 22.23 (45.4 → 46.4
 * MiB for a script that only loads util; Node 20: 0.2). The CLI needs only `parseArgs`
 * (docs/decisions.md, 170).
 */
export const { parseArgs } = createRequire(import.meta.url)('node:util') as typeof import('node:util');
