import { config } from 'zod';

// zod compiles a parser per object schema with `new Function` at its first parse: ~2 MiB more
// resident (idle 60.5 → 59.4 MiB, connected 62.3 → 60.0) for no gain in tools/call p50
// (1.93× its floor either way: bench/tools-call.ts). The MCP SDK shares this zod. This is zod's own
// public setting, not a change to its code.
config({ jitless: true });
await import('./cli');
