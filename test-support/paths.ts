import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The built `tabmcp` (run `node scripts/build.mjs` first). */
export const serverBin = join(repoRoot, 'packages', 'server', 'dist', 'tabmcp.js');
