import { LONG_BENCHES, smokeRun } from '../test-support/bench-smoke';

/** The two longest quick runs: real-apps.ts (tabmcp and both peers on real apps) and soak.ts (test-support/bench-smoke.ts). */
smokeRun('the longest benchmarks run through in their quick mode', LONG_BENCHES);
