// The proxy cluster under faults, the full run (issue 39; packages/proxy/test/chaos.test.ts is the quick one in
// `npm test`). Three `tabmcp-proxy serve` processes on one real redis-server, 8 fake browsers and 16 agents over real
// WebSockets on 127.0.0.1, a fault every 400 ms from a fixed seed: CLIENT KILL of an instance's Redis connections
// (commands, subscriber, both), SIGSTOP of an instance past its heartbeat's TTL, browsers redialing another instance
// with their old socket closed or left open and dead. Bars: at least 10,000 calls, 0 lost replies, 0 vanished
// browsers, 0 "did not answer" (the browsers always answer), 0 wrong answers.
// Run: npx tsx bench/proxy-chaos.ts   (BENCH_CHAOS_SEED=n for another schedule)
import { runChaos } from '../test-support/proxy/chaos';
import { iterations } from './lib/quick';
import { type Figure, machine, writeResult } from './lib/results';

const seed = Number(process.env.BENCH_CHAOS_SEED ?? 39);
const result = await runChaos({
  seed,
  instances: 3,
  browsers: 8,
  clients: 16,
  durationMs: iterations(60_000, 3_000),
  faultEveryMs: 400,
  heartbeatMs: 200,
  window: 4,
  log: (line) => console.log(line),
});
const faults = Object.values(result.faults).reduce((a, b) => a + b, 0);
const namedErrors = Object.values(result.namedErrors).reduce((a, b) => a + b, 0);
const clean =
  result.lost === 0 &&
  result.vanishedBrowsers === 0 &&
  result.didNotAnswer === 0 &&
  result.wrongAnswers === 0 &&
  result.extraSessions === 0;
const figures: Figure[] = [
  {
    name: 'proxy chaos: calls with their true answer or a named error',
    value: result.calls,
    unit: 'calls',
    bar: '≥ 10,000 calls; 0 lost, 0 vanished browsers, 0 "did not answer"',
    pass: result.calls >= 10_000 && clean,
    meaning: `${faults} faults in ${result.durationMs / 1000} s (seed ${seed}); ${result.answered} answered, ${namedErrors} named errors, ${result.lost} lost, ${result.didNotAnswer} "did not answer", ${result.vanishedBrowsers} browsers vanished`,
  },
];
console.log(JSON.stringify(result, null, 2));
console.log(
  `wrote ${writeResult('proxy-chaos', {
    name: 'proxy-chaos',
    meaning:
      'packages/proxy cluster under faults: every call of 16 agents to 8 browsers across 3 instances on one Redis, with Redis connections killed, an instance stopped past its heartbeat and browsers redialing elsewhere; each call ends answered (the true answer) or with an error that names its cause.',
    machine: machine(),
    result,
    figures,
  })}`,
);
if (!clean) process.exitCode = 1;
