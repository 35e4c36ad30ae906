// One way to run a child `node` whose output a test or script reads afterwards: used by
// scripts/node-lines.mjs (the unit tests on other Node lines) and test-support/bench-smoke.ts
// (each benchmark in its quick mode).
import { spawn } from 'node:child_process';

/**
 * Runs `node args…` in `cwd`, its stdout and stderr kept together, killed after `timeoutMs`;
 * resolves with its exit status (null when killed) and everything it printed. The child gets this
 * environment (plus `env`) without NODE_TEST_CONTEXT: inherited from a test, it would turn the
 * child's own output into a silent subtest's TAP.
 */
export function runChild(node, args, { cwd, env = {}, timeoutMs }) {
  return new Promise((done) => {
    const { NODE_TEST_CONTEXT: _inherited, ...inherited } = process.env;
    const child = spawn(node, args, { cwd, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      output += chunk.toString();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, output });
    });
  });
}
