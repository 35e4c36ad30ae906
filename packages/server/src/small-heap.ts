import { setFlagsFromString } from 'node:v8';

// The server's resident bar is 60 MiB (DESIGN.md). Under a steady stream of calls V8 grows the young
// generation to 2 × 16 MiB and lets the old generation run ahead of what it holds; these two flags
// keep both near their needs, for smaller, more frequent collections (over 1,200 calls the process
// grew by 18 MiB without them, by 2 to 5 MiB with them: bench/tools-call.ts). They are set here rather than on the node command line because that
// works however tabmcp is started (bin, `node dist/tabmcp.js`, an MCP client's command line). Only
// heuristics flags belong here: changing V8's GC threading after startup crashes it.
setFlagsFromString('--semi-space-growth-factor=1');
setFlagsFromString('--optimize-for-size');

// The server is a relay: per call it parses a line, checks a few schemas and forwards a frame, work
// V8's interpreter does at no more CPU per call than its compilers (A/B in docs/decisions.md). Each
// compiler tier costs memory, though: Turbofan's code, its compile thread and its pretenuring, and
// Sparkplug's baseline code. Without both, the process is 4.5 MiB smaller idle and ~7 MiB smaller
// after 1,200 calls (docs/decisions.md, "Issue 11: memory under the bar"). Byte loops are what would
// get slow: ws's frame masking, replaced for that reason (link/ws-masking.ts). Both flags are read
// at each tier-up decision, so setting them here takes effect.
setFlagsFromString('--no-turbofan');
setFlagsFromString('--no-sparkplug');
