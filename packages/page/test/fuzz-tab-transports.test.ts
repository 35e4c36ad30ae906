import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTabEnvelope, tabEnvelope } from '@tabmcp/protocol/light';
import fc from 'fast-check';
import { fuzzRuns } from '../../../test-support/fuzz-runs';
import { isRpcNotification, isRpcRequest, isRpcResponse } from '../src/jsonrpc-guard';
import { McpWindowProvider } from '../src/provider';
import { TabClient } from '../src/tab-client';
import { serveTab } from '../src/tab-server';

// `npm run fuzz` gives 100,000 inputs (test-support/fuzz-runs.ts); the default keeps `npm test` quick.
const runs = fuzzRuns(300);
const ORIGIN = 'http://127.0.0.1:5173';
const CHANNEL = 'mcp-default';
/** Each run is a sequence of messages, so TABMCP_FUZZ_RUNS counts messages. */
const MESSAGES_PER_RUN = 10;

/** Just enough of a window for serveTab: postMessage delivers a clone as a later task, like a browser. */
class SimulatedWindow extends EventTarget {
  readonly location = { origin: ORIGIN };
  readonly posted: Array<{ data: unknown; targetOrigin: string }> = [];

  postMessage(data: unknown, targetOrigin: string): void {
    this.posted.push({ data, targetOrigin });
    this.deliver(data, this);
  }

  /** A message as the page's listeners see it; `source` tells whether it came from this window. */
  deliver(data: unknown, source: unknown): void {
    let copy: unknown;
    try {
      copy = structuredClone(data);
    } catch {
      return; // a browser would refuse to post it at all
    }
    setImmediate(() => {
      const event = new Event('message');
      Object.assign(event, { data: copy, source, origin: ORIGIN });
      this.dispatchEvent(event);
    });
  }
}

function provider(): McpWindowProvider {
  const api = new McpWindowProvider({ name: 'fuzz', version: '1.0.0' });
  api.addTool(
    {
      name: 'echo',
      description: 'echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    },
    (args) => ({ echoed: args }),
  );
  api.addTool({ name: 'boom', description: 'throws', inputSchema: { type: 'object' } }, () => {
    throw new Error('boom');
  });
  return api;
}

const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'prompts/list',
  'prompts/get',
  'notifications/initialized',
];
const anyValue = fc.anything({ maxDepth: 3 });
const rpcId = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.double(), anyValue);
const params = fc.oneof(
  anyValue,
  fc.record(
    { name: fc.oneof(fc.constantFrom('echo', 'boom', 'nope'), anyValue), arguments: anyValue, uri: anyValue },
    { requiredKeys: [] },
  ),
);
const payload = fc.oneof(
  anyValue,
  fc.constantFrom('mcp-check-ready', 'mcp-server-ready', 'mcp-server-stopped'),
  fc.record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), anyValue),
      id: rpcId,
      method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 30 }), anyValue),
      params,
      result: anyValue,
      error: anyValue,
    },
    { requiredKeys: [] },
  ),
);
const message = fc.record({
  data: fc.oneof(
    { weight: 4, arbitrary: payload.map((body) => tabEnvelope(CHANNEL, 'client-to-server', body)) },
    { weight: 1, arbitrary: payload.map((body) => tabEnvelope(CHANNEL, 'server-to-client', body)) },
    { weight: 1, arbitrary: payload.map((body) => tabEnvelope('other', 'client-to-server', body)) },
    { weight: 1, arbitrary: anyValue },
  ),
  // Nine in ten from the page's own window; the rest must be ignored.
  fromThisWindow: fc.nat({ max: 9 }).map((draw) => draw > 0),
});

/** What serveTab owes a message: the handshake answer, one reply per request id, or nothing. */
function owed(data: unknown): string | undefined {
  if (!isTabEnvelope(data, CHANNEL, 'client-to-server')) return undefined;
  const body = data.payload;
  if (body === 'mcp-check-ready') return 'ready';
  if (isRpcRequest(body)) return JSON.stringify(body.id);
  if (isRpcNotification(body)) return undefined;
  if (typeof body === 'object' && body !== null && 'method' in body) return 'null';
  return undefined;
}

async function settle(win: SimulatedWindow, expected: number, replies: () => number): Promise<void> {
  for (let round = 0; round < 2_000 && replies() < expected; round++) {
    await new Promise((done) => setImmediate(done));
  }
  // A few more turns, so a second (wrong) reply would be seen too.
  for (let round = 0; round < 5; round++) await new Promise((done) => setImmediate(done));
  assert.ok(
    win.posted.every((post) => post.targetOrigin === ORIGIN),
    'a reply left for another origin',
  );
}

describe('fuzz: the tab server (serveTab) in a simulated window', () => {
  it('answers every request of its channel exactly once, ignores the rest, and keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { minLength: MESSAGES_PER_RUN, maxLength: MESSAGES_PER_RUN }),
        async (messages) => {
          const win = new SimulatedWindow();
          const server = serveTab(provider(), { window: win as unknown as Window });
          try {
            const expected = new Map<string, number>();
            for (const { data, fromThisWindow } of messages) {
              let delivered: unknown;
              try {
                delivered = structuredClone(data);
              } catch {
                continue;
              }
              const owedKey = fromThisWindow ? owed(delivered) : undefined;
              if (owedKey) expected.set(owedKey, (expected.get(owedKey) ?? 0) + 1);
              win.deliver(data, fromThisWindow ? win : {});
            }
            // After the noise, a plain call still works.
            const probe = {
              jsonrpc: '2.0',
              id: 'probe-after-fuzz',
              method: 'tools/call',
              params: { name: 'echo', arguments: { text: 'ok' } },
            };
            win.deliver(tabEnvelope(CHANNEL, 'client-to-server', probe), win);
            expected.set(
              JSON.stringify('probe-after-fuzz'),
              (expected.get(JSON.stringify('probe-after-fuzz')) ?? 0) + 1,
            );
            const total = [...expected.values()].reduce((sum, count) => sum + count, 0);

            const answers = () =>
              win.posted
                .map((post) => post.data)
                .filter((data) => isTabEnvelope(data, CHANNEL, 'server-to-client'))
                .map((data) => (data as { payload: unknown }).payload);
            const startupReady = 1;
            const counted = () =>
              answers().filter((body) => body === 'mcp-server-ready' || isRpcResponse(body)).length - startupReady;
            await settle(win, total, counted);

            const got = new Map<string, number>();
            for (const body of answers().slice(0)) {
              if (body === 'mcp-server-ready') got.set('ready', (got.get('ready') ?? 0) + 1);
              else if (isRpcResponse(body))
                got.set(JSON.stringify(body.id), (got.get(JSON.stringify(body.id)) ?? 0) + 1);
              else if (typeof body === 'object' && body !== null && 'method' in body)
                assert.ok(isRpcNotification(body));
              else
                assert.fail(
                  `serveTab posted something that is neither a reply nor a notification: ${JSON.stringify(body)}`,
                );
            }
            got.set('ready', (got.get('ready') ?? 0) - startupReady);
            if (got.get('ready') === 0) got.delete('ready');
            assert.deepEqual(Object.fromEntries(got), Object.fromEntries(expected));
            const probeReply = answers().find((body) => isRpcResponse(body) && body.id === 'probe-after-fuzz') as {
              result?: { content?: Array<{ text?: string }> };
            };
            assert.match(probeReply.result?.content?.[0]?.text ?? '', /"text":"ok"/);
          } finally {
            server.close();
          }
        },
      ),
      { numRuns: Math.max(1, Math.ceil(runs / MESSAGES_PER_RUN)) },
    );
  });
});

describe('fuzz: JSON-RPC guards of the page bundle', () => {
  it('never throw, and a value is at most one of request, notification, response', () => {
    fc.assert(
      fc.property(payload, (value) => {
        const kinds = [isRpcRequest(value), isRpcNotification(value), isRpcResponse(value)].filter(Boolean);
        assert.ok(kinds.length <= 1);
      }),
      { numRuns: runs },
    );
  });

  it('a request the guard accepts has a usable id and method', () => {
    fc.assert(
      fc.property(payload, (value) => {
        if (!isRpcRequest(value)) return;
        assert.equal(typeof value.method, 'string');
        assert.ok(typeof value.id === 'string' ? value.id.length <= 512 : Number.isInteger(value.id));
        assert.doesNotThrow(() => JSON.stringify(value.id));
      }),
      { numRuns: runs },
    );
  });
});

describe('fuzz: the tab client (the content script side) against a hostile page', () => {
  it('settles every request once, with its own answer or a clear close, whatever else the page posts', async () => {
    const hostile = fc.oneof(
      { weight: 5, arbitrary: payload.map((body) => tabEnvelope(CHANNEL, 'server-to-client', body)) },
      { weight: 1, arbitrary: payload.map((body) => tabEnvelope(CHANNEL, 'client-to-server', body)) },
      { weight: 1, arbitrary: anyValue },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostile, { minLength: MESSAGES_PER_RUN, maxLength: MESSAGES_PER_RUN }),
        async (messages) => {
          const win = new SimulatedWindow();
          const client = new TabClient({ window: win as unknown as Window, requestTimeoutMs: 5_000 });
          try {
            const asked = [0, 1, 2].map((index) =>
              client.request('tools/call', { name: 'echo', arguments: { index } }).then(
                (value) => ({ value }),
                (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
              ),
            );
            for (const data of messages) win.deliver(data, win);
            // Then the page's real server answers each request by its id.
            await new Promise((done) => setImmediate(done));
            const requests = win.posted
              .map((post) => post.data)
              .filter((data) => isTabEnvelope(data, CHANNEL, 'client-to-server'))
              .map((data) => (data as { payload: unknown }).payload)
              .filter(isRpcRequest);
            assert.equal(requests.length, 3);
            for (const request of requests) {
              const { index } = (request.params as { arguments: { index: number } }).arguments;
              win.deliver(
                tabEnvelope(CHANNEL, 'server-to-client', { jsonrpc: '2.0', id: request.id, result: { index } }),
                win,
              );
            }
            const settled = await Promise.all(asked);
            const stopped = messages.some(
              (data) => isTabEnvelope(data, CHANNEL, 'server-to-client') && data.payload === 'mcp-server-stopped',
            );
            settled.forEach((outcome, index) => {
              if ('value' in outcome) assert.deepEqual(outcome.value, { index });
              else {
                assert.ok(stopped, `request ${index} failed without a stop: ${outcome.error}`);
                assert.match(outcome.error, /stopped its MCP server/);
              }
            });
          } finally {
            client.close();
          }
        },
      ),
      { numRuns: Math.max(1, Math.ceil(runs / MESSAGES_PER_RUN)) },
    );
  });
});
