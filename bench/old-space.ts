// Issue 11: what each inbound MCP message leaves in the server's old space. Garbage that reaches old
// space stays resident until a mark-compact, so this is what drives the server's memory under calls
// (docs/history/decision-log.md, "Issue 11: memory under the bar"). The built tabmcp and, as the floor, a bare
// stdio JSON-RPC responder in the same node, each with a preload that reads V8's GCProfiler around
// N pings and N notifications; no browser. Run: npx tsx bench/old-space.ts
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverBin } from '../test-support/paths';
import { iterations } from './lib/quick';
import { type Figure, machine, writeResult } from './lib/results';
import { median } from './lib/stats';

const MESSAGES = iterations(600, 50);
const WARMUP = iterations(300, 20);
const RUNS = iterations(3, 1);

// First SIGUSR2 starts the profiler, the second writes what old space gained: by promotion during
// scavenges, and by allocation straight into old space between collections.
const PRELOAD = `const v8 = require('node:v8');
const fs = require('node:fs');
const profiler = new v8.GCProfiler();
let running = false;
const oldBytes = (stats) => stats.heapSpaceStatistics
  .filter((space) => space.spaceName === 'old_space' || space.spaceName === 'large_object_space')
  .reduce((sum, space) => sum + space.spaceUsedSize, 0);
process.on('SIGUSR2', () => {
  if (!running) { running = true; profiler.start(); fs.writeFileSync(process.env.OLD_SPACE_OUT, '{}'); return; }
  running = false;
  let promoted = 0, direct = 0, previous, scavenges = 0, markCompacts = 0;
  for (const gc of profiler.stop().statistics) {
    const before = oldBytes(gc.beforeGC), after = oldBytes(gc.afterGC);
    if (previous !== undefined) direct += before - previous;
    if (gc.gcType === 'Scavenge') { promoted += after - before; scavenges++; } else markCompacts++;
    previous = after;
  }
  fs.writeFileSync(process.env.OLD_SPACE_OUT, JSON.stringify({ promoted, direct, scavenges, markCompacts }));
});
`;

// The floor: parses each line and answers requests, nothing else.
const BARE_RESPONDER = `let pending = '';
process.stdin.on('data', (chunk) => {
  pending += chunk;
  for (let newline = pending.indexOf('\\n'); newline !== -1; newline = pending.indexOf('\\n')) {
    const message = JSON.parse(pending.slice(0, newline));
    pending = pending.slice(newline + 1);
    if (message.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }) + '\\n');
  }
});
`;

interface Gain {
  promoted: number;
  direct: number;
  scavenges: number;
  markCompacts: number;
}

const dir = mkdtempSync(join(tmpdir(), 'tabmcp-old-space-'));
const preload = join(dir, 'preload.cjs');
const responder = join(dir, 'responder.cjs');
writeFileSync(preload, PRELOAD);
writeFileSync(responder, BARE_RESPONDER);

class StdioPeer {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #waiting = new Map<number, () => void>();
  readonly #out: string;
  #nextId = 0;
  #buffer = '';

  constructor(script: string, args: string[], out: string, home: string) {
    this.#out = out;
    this.#child = spawn(process.execPath, ['--require', preload, script, ...args], {
      env: { ...process.env, OLD_SPACE_OUT: out, TABMCP_HOME: home },
    });
    this.#child.stderr.resume();
    this.#child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.#buffer += chunk;
      for (let newline = this.#buffer.indexOf('\n'); newline !== -1; newline = this.#buffer.indexOf('\n')) {
        const { id } = JSON.parse(this.#buffer.slice(0, newline)) as { id?: number };
        this.#buffer = this.#buffer.slice(newline + 1);
        if (id !== undefined) this.#waiting.get(id)?.();
      }
    });
  }

  request(method: string, params: object = {}): Promise<void> {
    const id = ++this.#nextId;
    return new Promise((answered, failed) => {
      const timer = setTimeout(() => failed(new Error(`${method} got no answer in 10 s`)), 10_000);
      this.#waiting.set(id, () => {
        clearTimeout(timer);
        this.#waiting.delete(id);
        answered();
      });
      this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method: string): void {
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }

  /** Toggles the preload's profiler and waits for what it wrote. */
  async signal(): Promise<Gain> {
    rmSync(this.#out, { force: true });
    this.#child.kill('SIGUSR2');
    for (let waited = 0; !existsSync(this.#out) || readFileSync(this.#out, 'utf8') === ''; waited += 10) {
      if (waited > 5_000) throw new Error('the old-space preload did not answer');
      await new Promise((done) => setTimeout(done, 10));
    }
    return JSON.parse(readFileSync(this.#out, 'utf8')) as Gain;
  }

  close(): void {
    this.#child.kill();
  }
}

/** KB that old space gained per message: N pings, or N notifications (a ping after every 20 keeps pace). */
async function measure(script: string, args: string[], kind: 'ping' | 'notification'): Promise<Gain> {
  const home = mkdtempSync(join(dir, 'home-'));
  const peer = new StdioPeer(script, args, join(dir, 'gain.json'), home);
  try {
    await peer.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'old-space-bench', version: '1' },
    });
    peer.notify('notifications/initialized');
    for (let index = 0; index < WARMUP; index++) await peer.request('ping');
    await peer.signal();
    for (let index = 0; index < MESSAGES; index++) {
      if (kind === 'ping') await peer.request('ping');
      else {
        peer.notify('notifications/roots/list_changed');
        if (index % 20 === 19) await peer.request('ping');
      }
    }
    const gain = await peer.signal();
    const perMessage = (bytes: number) => Math.round((bytes / 1024 / MESSAGES) * 100) / 100;
    return { ...gain, promoted: perMessage(gain.promoted), direct: perMessage(gain.direct) };
  } finally {
    peer.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const servers = {
  tabmcp: { script: serverBin, args: ['--port', '0'] },
  floor: { script: responder, args: [] },
};
const runs: Record<string, Gain[]> = {};
try {
  for (let run = 0; run < RUNS; run++) {
    for (const kind of ['ping', 'notification'] as const) {
      for (const [name, server] of Object.entries(servers)) {
        const key = `${name} ${kind}`;
        runs[key] = [...(runs[key] ?? []), await measure(server.script, server.args, kind)];
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const promoted = (key: string) => median((runs[key] ?? []).map((gain) => gain.promoted));
const direct = (key: string) => median((runs[key] ?? []).map((gain) => gain.direct));
const figures: Figure[] = [];
for (const kind of ['ping', 'notification'] as const) {
  const value = promoted(`tabmcp ${kind}`);
  const floor = promoted(`floor ${kind}`);
  console.log(
    `${kind.padEnd(12)} promoted to old space per message: tabmcp ${value} KB (floor ${floor} KB); allocated there directly: tabmcp ${direct(`tabmcp ${kind}`)} KB (floor ${direct(`floor ${kind}`)} KB); median of ${RUNS} × ${MESSAGES}`,
  );
  figures.push({
    name: `old space gained per ${kind}`,
    value,
    unit: 'KB',
    beside: { label: 'bare stdio JSON-RPC responder', value: floor },
    meaning: `What each inbound ${kind} promotes into the server's old space, where it stays until a mark-compact (stop 20: ${kind === 'ping' ? '~4' : '~6'} KB).`,
  });
}
const file = writeResult('old-space', {
  name: 'old-space',
  meaning: "KB per inbound message that reach the server's old space, beside a bare stdio JSON-RPC responder.",
  machine: machine(),
  messages: MESSAGES,
  runs,
  figures,
});
console.log(`wrote ${file}`);
