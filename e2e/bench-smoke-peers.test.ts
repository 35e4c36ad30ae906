import { PEER_BENCHES, smokeRun } from '../test-support/bench-smoke';

/** The benchmarks that drive Playwright MCP and chrome-devtools-mcp beside tabmcp (test-support/bench-smoke.ts). */
smokeRun('every benchmark beside the peers runs through in its quick mode', PEER_BENCHES);
