// The bundle's entry: the heap settings must apply before the rest of tabmcp loads (loading alone
// would grow the young generation), so everything else is imported after them.
import './small-heap';
import { config } from 'zod';

// zod compiles a parser per object schema with `new Function` at its first parse: ~2 MiB more
// resident (idle 60.5 → 59.4 MiB, connected 62.3 → 60.0) for no gain in tools/call p50
// (1.93× its floor either way: bench/tools-call.ts). The MCP SDK shares this zod.
config({ jitless: true });
await import('./cli');
