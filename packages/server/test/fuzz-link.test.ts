import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { EXTENSION_ORIGIN, ExtensionToServer, parseMessage, ServerToExtension } from '@tabmcp/protocol';
import fc from 'fast-check';
import WebSocket from 'ws';
import { fuzzRuns } from '../../../test-support/fuzz-runs';
import { freePort } from '../../../test-support/net';
import { serverBin } from '../../../test-support/paths';
import type { StdioMcp } from '../../../test-support/stdio-client';
import { startTabmcpProcess } from '../../../test-support/tabmcp-process';
import { authenticateListener } from '../src/link/link-auth';

// `npm run fuzz` gives 100,000 inputs (test-support/fuzz-runs.ts); the default keeps `npm test` quick.
const runs = fuzzRuns(300);
const FRAMES_PER_RUN = 10;

/** A socket that proved the pairing token (link-auth.ts), as the extension and peers do. */
async function opened(url: string, options: WebSocket.ClientOptions, token: string): Promise<WebSocket> {
  const socket = await new Promise<WebSocket>((done, fail) => {
    const dialled = new WebSocket(url, options);
    dialled.once('open', () => done(dialled));
    dialled.once('error', fail);
  });
  await authenticateListener(socket, token);
  return socket;
}

const TAB = {
  id: 7,
  title: 'Fuzz page',
  url: 'http://127.0.0.1:9/',
  active: true,
  tools: [{ name: 'page_echo', description: 'echo', inputSchema: { type: 'object' } }],
};

/** Plays the browser extension: answers the server's requests the way the real one does. */
function playExtension(socket: WebSocket, pongs: Array<() => void>): void {
  const send = (message: unknown) => socket.send(JSON.stringify(message));
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown> & { type: string };
    switch (message.type) {
      case 'pong':
        pongs.shift()?.();
        return;
      case 'connect':
        send({
          type: 'connected',
          requestId: message.requestId,
          browser: { name: 'Chromium', version: '156' },
          tabs: [TAB],
        });
        return;
      case 'focusTab':
        send({ type: 'response', requestId: message.requestId, result: { tab: { ...TAB, id: message.tabId } } });
        return;
      case 'callTool':
        send({ type: 'toolResult', callId: message.callId, result: { content: [{ type: 'text', text: 'echoed' }] } });
        return;
      case 'pageRequest': {
        const empty: Record<string, unknown> = {
          'resources/list': { resources: [] },
          'resources/templates/list': { resourceTemplates: [] },
          'prompts/list': { prompts: [] },
        };
        send({ type: 'response', requestId: message.requestId, result: empty[String(message.method)] ?? {} });
        return;
      }
      default:
        if (typeof message.requestId === 'string') send({ type: 'response', requestId: message.requestId, result: {} });
    }
  });
}

/** Events that legitimately change the browser state: fuzzed valid against a model, below. */
const STATEFUL = new Set([
  'tabCreated',
  'tabUpdated',
  'tabClosed',
  'tabFocused',
  'toolsChanged',
  'disconnected',
  'pageNotification',
]);
const EVENT_TYPES = ['ping', 'hello', 'connected', 'response', 'toolResult', ...STATEFUL];

const anyJson = fc.jsonValue({ maxDepth: 3 });
const textFrame = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.json({ maxDepth: 4 }),
  fc
    .record(
      {
        type: fc.oneof(fc.constantFrom(...EVENT_TYPES, 'connect', 'callTool', 'pong'), fc.string({ maxLength: 12 })),
        requestId: fc.oneof(fc.string({ maxLength: 20 }), anyJson),
        callId: fc.oneof(fc.string({ maxLength: 20 }), anyJson),
        tabId: fc.oneof(fc.integer(), anyJson),
        tab: anyJson,
        tools: fc.oneof(fc.array(anyJson, { maxLength: 3 }), anyJson),
        result: anyJson,
        error: anyJson,
        browser: anyJson,
      },
      { requiredKeys: ['type'] },
    )
    .map((message) => JSON.stringify(message)),
);
/** What the agent and the browser do, valid, to a small world of three tabs and three tool names. */
const TAB_IDS = [7, 8, 9];
const toolList = (names: string[]) =>
  names.map((name) => ({ name, description: name, inputSchema: { type: 'object' } }));
const tabId = fc.constantFrom(...TAB_IDS);
const tabInfo = tabId.map((id) => ({ id, title: `Tab ${id}`, url: `http://127.0.0.1:9/${id}`, active: false }));
const toolNamesArb = fc.subarray(['alpha', 'beta', 'gamma']);
const step = fc.oneof(
  fc.record({ type: fc.constantFrom('tabCreated', 'tabUpdated'), tab: tabInfo }),
  fc.record({ type: fc.constant('tabClosed'), tabId }),
  // An emptied list is held for the navigation grace (session.ts): a timer the model leaves out.
  fc.record({ type: fc.constant('toolsChanged'), tabId, tools: toolNamesArb.filter((names) => names.length > 0) }),
  fc.record({ type: fc.constant('tabFocused'), tabId, tools: toolNamesArb }),
  fc.record({
    type: fc.constant('pageNotification'),
    tabId,
    method: fc.constant('notifications/resources/list_changed'),
  }),
  fc.record({ type: fc.constant('agentFocus'), tabId }),
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** The session as docs/requirements.md#local-server describes it: its tabs, each tab's tools, and the agent's focus. */
class SessionModel {
  tabs = new Map<number, string[]>([[TAB.id, ['page_echo']]]);
  focused: number | null = TAB.id;

  apply(next: Step): void {
    switch (next.type) {
      case 'tabCreated':
      case 'tabUpdated':
        this.tabs.set(next.tab.id, this.tabs.get(next.tab.id) ?? []);
        return;
      case 'tabClosed':
        this.tabs.delete(next.tabId);
        if (this.focused === next.tabId) this.focused = null;
        return;
      case 'toolsChanged':
      case 'tabFocused':
        if (this.tabs.has(next.tabId)) this.tabs.set(next.tabId, next.tools);
        return;
      case 'agentFocus':
        if (this.tabs.has(next.tabId)) this.focused = next.tabId;
        return;
      case 'pageNotification':
        return;
    }
  }

  toolNames(): string[] {
    const core =
      this.tabs.size === 0
        ? ['list_tabs', 'open_tab']
        : ['list_tabs', 'open_tab', 'focus_tab', ...(this.focused === null ? [] : ['close_tab'])];
    const page = this.focused === null ? [] : (this.tabs.get(this.focused) ?? []);
    return [...core, ...page].sort();
  }
}

const frame = fc.oneof(
  { weight: 9, arbitrary: textFrame.map((text) => ({ text })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ bytes })) },
);

describe('fuzz: the browser link of the built tabmcp, fed random frames over a real socket', () => {
  let client: Client;
  let extension: WebSocket;
  let port = 0;
  let token = '';
  let tabmcp: StdioMcp;
  const pongs: Array<() => void> = [];
  let baseline: string[] = [];

  const toolNames = async () => (await client.listTools()).tools.map((tool) => tool.name).sort();
  const roundTrip = () =>
    new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error('the link stopped answering ping')), 5_000);
      pongs.push(() => {
        clearTimeout(timer);
        done();
      });
      extension.send(JSON.stringify({ type: 'ping' }));
    });

  before(async () => {
    assert.ok(existsSync(serverBin), `${serverBin} is missing: run npm run build first`);
    port = await freePort();
    token = randomBytes(24).toString('base64url');
    tabmcp = await startTabmcpProcess({
      args: ['--port', String(port), '--browser', '/nonexistent/chromium'],
      env: { TABMCP_TOKEN: token },
      clientName: 'tabmcp-fuzz',
    });
    client = tabmcp.client;
    extension = await opened(`ws://127.0.0.1:${port}/`, { origin: EXTENSION_ORIGIN }, token);
    playExtension(extension, pongs);
    extension.send(
      JSON.stringify({
        type: 'hello',
        protocolVersion: 1,
        extensionVersion: '0.1.0',
        browser: { name: 'Chromium', version: '156' },
      }),
    );
    const connected = await client.callTool({ name: 'connect_browser', arguments: {} });
    assert.notEqual(connected.isError, true, JSON.stringify(connected));
    const focused = await client.callTool({ name: 'focus_tab', arguments: { tabId: TAB.id } });
    assert.notEqual(focused.isError, true, JSON.stringify(focused));
    baseline = await toolNames();
    assert.ok(baseline.includes('page_echo'), `the fake tab's tool is listed: ${baseline.join(', ')}`);
  });

  after(async () => {
    extension?.terminate();
    await tabmcp?.close();
  });

  it('random extension frames never drop the link, change the tools or stop page tool calls', async () => {
    let closed = false;
    extension.once('close', () => {
      closed = true;
    });
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: FRAMES_PER_RUN, maxLength: FRAMES_PER_RUN }), async (frames) => {
        for (const next of frames) {
          if ('bytes' in next) {
            extension.send(next.bytes, { binary: true });
            continue;
          }
          const parsed = parseMessage(ExtensionToServer, next.text, 'frame');
          if (parsed.ok && STATEFUL.has(parsed.value.type)) continue;
          extension.send(next.text);
        }
        await roundTrip();
        assert.equal(closed, false, 'the server closed the extension socket');
        assert.deepEqual(await toolNames(), baseline);
      }),
      { numRuns: Math.max(1, Math.ceil(runs / FRAMES_PER_RUN)) },
    );
    const call = await client.callTool({ name: 'page_echo', arguments: {} });
    assert.deepEqual(call.content, [{ type: 'text', text: 'echoed' }]);
  });

  it('random frames from a peer tabmcp leave the owner serving', async () => {
    const peer = await opened(`ws://127.0.0.1:${port}/peer`, {}, token);
    peer.on('error', () => {});
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(frame, { minLength: FRAMES_PER_RUN, maxLength: FRAMES_PER_RUN }), async (frames) => {
          for (const next of frames) {
            if (peer.readyState !== WebSocket.OPEN) break;
            if ('bytes' in next) peer.send(next.bytes, { binary: true });
            // A valid request from a peer is legitimate work, not fuzz.
            else if (!parseMessage(ServerToExtension, next.text, 'frame').ok) peer.send(next.text);
          }
          await roundTrip();
          assert.deepEqual(await toolNames(), baseline);
        }),
        { numRuns: Math.max(1, Math.ceil(runs / FRAMES_PER_RUN)) },
      );
    } finally {
      peer.terminate();
    }
    const call = await client.callTool({ name: 'page_echo', arguments: {} });
    assert.deepEqual(call.content, [{ type: 'text', text: 'echoed' }]);
  });

  it('refuses a socket without the extension Origin or the token, and keeps the extension', async () => {
    await assert.rejects(opened(`ws://127.0.0.1:${port}/`, { origin: 'http://evil.example' }, token), /403/);
    // The right Origin but the wrong token: the server's proof does not check out, nothing is sent.
    await assert.rejects(opened(`ws://127.0.0.1:${port}/`, { origin: EXTENSION_ORIGIN }, 'wrong'), /pairing token/);
    await roundTrip();
    assert.deepEqual(await toolNames(), baseline);
  });

  it('valid state-changing events and focus_tab calls leave the state the model predicts; disconnected ends it', async () => {
    const model = new SessionModel();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: FRAMES_PER_RUN }), async (steps) => {
        for (const next of steps) {
          if (next.type === 'agentFocus') {
            // Every event sent so far is applied before the agent acts.
            await roundTrip();
            const result = await client.callTool({ name: 'focus_tab', arguments: { tabId: next.tabId } });
            assert.equal(result.isError === true, !model.tabs.has(next.tabId), JSON.stringify(result));
          } else {
            const tools = 'tools' in next ? { tools: toolList(next.tools) } : {};
            extension.send(JSON.stringify({ ...next, ...tools }));
          }
          model.apply(next);
        }
        await roundTrip();
        const listed = (await client.callTool({ name: 'list_tabs', arguments: {} })) as {
          content: Array<{ text: string }>;
        };
        const state = JSON.parse(listed.content[0]?.text ?? '{}') as {
          tabs: Array<{ id: number; toolCount: number }>;
          focusedTabId: number | null;
        };
        assert.deepEqual(state.tabs.map((tab) => tab.id).sort(), [...model.tabs.keys()].sort());
        assert.equal(state.focusedTabId, model.focused);
        for (const tab of state.tabs) assert.equal(tab.toolCount, model.tabs.get(tab.id)?.length, `tab ${tab.id}`);
        assert.deepEqual(await toolNames(), model.toolNames());
      }),
      { numRuns: Math.max(1, Math.ceil(runs / FRAMES_PER_RUN)) },
    );
    const closed = new Promise((done) => extension.once('close', done));
    extension.send(JSON.stringify({ type: 'disconnected' }));
    await closed;
    assert.deepEqual(await toolNames(), ['connect_browser']);
  });
});
