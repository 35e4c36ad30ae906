import { setFlagsFromString } from 'node:v8';

// The server's resident bar is 60 MiB (DESIGN.md). Under a steady stream of calls V8 grows the young
// generation to 2 × 16 MiB and lets the old generation run ahead of what it holds; these two flags
// keep both near their needs, for smaller, more frequent collections (over 1,200 calls the process
// grew by 18 MiB without them, by 2 to 5 MiB with them: bench/tools-call.ts). They are set here rather than on the node command line because that
// works however tabmcp is started (bin, `node dist/tabmcp.js`, an MCP client's command line). Only
// heuristics flags belong here: changing V8's GC threading after startup crashes it.
setFlagsFromString('--semi-space-growth-factor=1');
setFlagsFromString('--optimize-for-size');
