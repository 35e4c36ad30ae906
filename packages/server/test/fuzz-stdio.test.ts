import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { fuzzRuns } from '../../../test-support/fuzz-runs';
import { freePort } from '../../../test-support/net';
import { serverBin } from '../../../test-support/paths';

// `npm run fuzz` gives 100,000 inputs (test-support/fuzz-runs.ts); the default keeps `npm test` quick.
const runs = fuzzRuns(300);
const LINES_PER_RUN = 10;

type Reply = { jsonrpc: string; id: unknown; result?: unknown; error?: { code: unknown; message: unknown } };

/** A line that must be answered: a JSON-RPC request as MCP frames it (id string or integer, params an object). */
function requestId(line: string): string | number | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const message = value as Record<string, unknown>;
  const idOk = typeof message.id === 'string' || Number.isInteger(message.id);
  const paramsOk =
    message.params === undefined ||
    (typeof message.params === 'object' && message.params !== null && !Array.isArray(message.params));
  if (message.jsonrpc !== '2.0' || !idOk || typeof message.method !== 'string' || !paramsOk) return undefined;
  return message.id as string | number;
}

// connect_browser is left out: it would wait for a browser (2 s) and add nothing to the framing.
const TOOL_NAMES = ['list_tabs', 'open_tab', 'focus_tab', 'close_tab', 'no_such_tool'];
const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'logging/setLevel',
  'completion/complete',
  'notifications/initialized',
  'notifications/cancelled',
];
const anyJson = fc.jsonValue({ maxDepth: 3 });
const noNewline = (text: string) => text.replace(/[\r\n]/g, ' ');

describe('fuzz: MCP stdio framing of the built tabmcp', () => {
  let child: ChildProcessWithoutNullStreams;
  let home = '';
  const replies = new Map<string, Reply[]>();
  const waiters = new Map<string, () => void>();
  const strayLines: string[] = [];
  let nextId = 0;
  let answered = 0;

  const keyOf = (id: unknown) => JSON.stringify(id);
  const waitForReply = (id: string | number, timeoutMs = 10_000) =>
    new Promise<void>((done, fail) => {
      if (replies.has(keyOf(id))) return done();
      const timer = setTimeout(
        () => fail(new Error(`no reply to request ${keyOf(id)} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      waiters.set(keyOf(id), () => {
        clearTimeout(timer);
        done();
      });
    });

  before(async () => {
    assert.ok(existsSync(serverBin), `${serverBin} is missing: run npm run build first`);
    home = mkdtempSync(join(tmpdir(), 'tabmcp-fuzz-home-'));
    child = spawn(
      process.execPath,
      [serverBin, '--port', String(await freePort()), '--browser', '/nonexistent/chromium'],
      {
        env: { ...process.env, TABMCP_HOME: home },
      },
    );
    child.stderr.resume();
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message: Reply;
      try {
        message = JSON.parse(line) as Reply;
      } catch {
        strayLines.push(line);
        return;
      }
      if (!('id' in message) || 'method' in message) return; // a notification or a request of the server's own
      const key = keyOf(message.id);
      replies.set(key, [...(replies.get(key) ?? []), message]);
      waiters.get(key)?.();
      waiters.delete(key);
    });
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1.0.0' } },
    });
    child.stdin.write(`${init}\n`);
    await waitForReply('init');
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  });

  after(() => {
    child?.stdin.end();
    child?.kill();
    rmSync(home, { recursive: true, force: true });
  });

  it('answers every request with an id exactly once, well-formed, whatever else arrives, and stays up', async () => {
    const request = fc
      .record(
        {
          method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 30 })),
          params: fc.oneof(
            fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 3 }),
            fc.record({
              name: fc.oneof(fc.constantFrom(...TOOL_NAMES), fc.string({ maxLength: 20 })),
              arguments: fc.oneof(fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 3 }), anyJson),
            }),
          ),
          withParams: fc.boolean(),
        },
        { requiredKeys: ['method', 'withParams'] },
      )
      .map(({ method, params, withParams }) => ({ method, ...(withParams && params !== undefined ? { params } : {}) }));
    const line = fc.oneof(
      fc.string({ maxLength: 200 }).map(noNewline),
      fc.json({ maxDepth: 4 }).map(noNewline),
      // Well-formed requests get fresh ids when the line is written, so shrinking cannot reuse one.
      { weight: 3, arbitrary: request.map((body) => ({ request: body })) },
      fc
        .record({ jsonrpc: fc.constant('2.0'), method: fc.string({ maxLength: 30 }), params: anyJson })
        .map((note) => JSON.stringify(note)),
      fc
        .record({ jsonrpc: fc.constant('2.0'), id: anyJson, result: anyJson })
        .map((response) => JSON.stringify(response)),
      fc
        .record({ jsonrpc: anyJson, id: anyJson, method: anyJson, params: anyJson }, { requiredKeys: [] })
        .map((odd) => JSON.stringify(odd)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: LINES_PER_RUN, maxLength: LINES_PER_RUN }),
        fc.context(),
        async (lines, ctx) => {
          const owed: Array<string | number> = [];
          for (const entry of lines) {
            const text =
              typeof entry === 'string'
                ? entry
                : JSON.stringify({
                    jsonrpc: '2.0',
                    id: nextId % 2 ? `fz-${nextId++}` : 1_000_000 + nextId++,
                    ...entry.request,
                  });
            const id = requestId(text);
            if (id !== undefined) {
              if (replies.has(keyOf(id))) continue; // an id seen before: JSON-RPC leaves a reused id to the client
              owed.push(id);
            }
            ctx.log(text);
            child.stdin.write(`${text}\n`);
          }
          await Promise.all(owed.map((id) => waitForReply(id)));
          for (const id of owed) {
            const got = replies.get(keyOf(id)) ?? [];
            assert.equal(got.length, 1, `request ${keyOf(id)} got ${got.length} replies`);
            const [reply] = got as [Reply];
            assert.equal(reply.jsonrpc, '2.0');
            assert.ok('result' in reply !== 'error' in reply, `one of result or error: ${JSON.stringify(reply)}`);
            if (reply.error) {
              assert.ok(Number.isInteger(reply.error.code), JSON.stringify(reply));
              assert.equal(typeof reply.error.message, 'string');
            }
          }
          answered += owed.length;
          assert.equal(child.exitCode, null, 'tabmcp exited');
          assert.deepEqual(strayLines, [], 'stdout carried something that is not JSON-RPC');
        },
      ),
      { numRuns: Math.max(1, Math.ceil(runs / LINES_PER_RUN)) },
    );
    assert.ok(answered > 0, 'the fuzz sent no well-formed request');
    const id = `final-${nextId++}`;
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`);
    await waitForReply(id);
    const listed = replies.get(keyOf(id))?.[0]?.result as { tools?: Array<{ name: string }> } | undefined;
    assert.deepEqual(
      listed?.tools?.map((tool) => tool.name),
      ['connect_browser'],
    );
  });

  it('answers a malformed request that carries an id with an Invalid Request error', async () => {
    for (const body of [
      { jsonrpc: '2.0', id: 'bad-params', method: 'tools/list', params: 5 },
      { jsonrpc: '2.0', id: 4.5, method: 'ping' },
    ]) {
      child.stdin.write(`${JSON.stringify(body)}\n`);
      await waitForReply(body.id, 5_000);
      const got = replies.get(keyOf(body.id)) ?? [];
      assert.equal(got.length, 1, `request ${keyOf(body.id)} got ${got.length} replies`);
      assert.equal(got[0]?.error?.code, -32600, JSON.stringify(got[0]));
      assert.match(String(got[0]?.error?.message), /Invalid Request/);
    }
    // The server is still up and answers the next well-formed request.
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'after-bad', method: 'ping' })}\n`);
    await waitForReply('after-bad');
    assert.deepEqual(replies.get(keyOf('after-bad'))?.[0]?.result, {});
  });
});
