import { enableCompileCache } from './compile-cache';

// Before anything heavy is imported: the cache covers only modules loaded after it is enabled.
enableCompileCache();
// zod compiles a parser per object schema with `new Function` at its first parse: ~2 MiB more
// resident (idle 60.5 → 59.4 MiB, connected 62.3 → 60.0) for no gain in tools/call p50
// (1.93× its floor either way: bench/tools-call.ts). The MCP SDK shares this zod. This is zod's own
// public setting, not a change to its code.
const { config } = await import('zod');
config({ jitless: true });
await import('./cli');
