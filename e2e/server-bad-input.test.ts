import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EXTENSION_ORIGIN, MAX_MESSAGE_BYTES } from '@tabmcp/protocol';
import WebSocket from 'ws';
import { authenticateListener } from '../packages/server/src/link/link-auth';
import { freePort, serverBin, textOf, waitFor } from '../test-support/harness';
import { type Machine, newMachine } from '../test-support/server-harness';

/**
 * Bad input at tabmcp's two boundaries: the browser link (a client holding the extension's Origin
 * and the token, so it gets past the door and then misbehaves) and stdio. Each gets an error or a
 * log line, nothing crashes, and the state built before is still there afterwards.
 */
describe('bad input on the WebSocket and on stdio', () => {
  let machine: Machine;
  let client: Client;
  let stderr = '';
  let extension: WebSocket;
  const received: Array<Record<string, unknown>> = [];

  /** A well-behaved extension after all: answers connect with one tab. */
  function answer(raw: WebSocket.RawData): void {
    const message = JSON.parse(raw.toString()) as Record<string, unknown>;
    received.push(message);
    if (message.type === 'connect') {
      extension.send(
        JSON.stringify({
          type: 'connected',
          requestId: message.requestId,
          browser: { name: 'Chromium', version: '156.0' },
          tabs: [{ id: 7, title: 'Kept', url: 'https://kept.example/' }],
        }),
      );
    }
  }

  before(async () => {
    machine = await newMachine();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [serverBin, '--port', String(machine.port)],
      env: { ...process.env, TABMCP_HOME: machine.home, TABMCP_TOKEN: machine.token } as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client({ name: 'bad-input', version: '1.0.0' });
    await client.connect(transport);
    extension = new WebSocket(`ws://127.0.0.1:${machine.port}/`, { origin: EXTENSION_ORIGIN });
    await authenticateListener(extension, machine.token);
    extension.on('message', answer);
    const connected = await client.callTool({ name: 'connect_browser', arguments: {} });
    assert.notEqual(connected.isError, true, JSON.stringify(connected));
  });

  after(async () => {
    extension?.close();
    await client?.close();
    machine?.close();
  });

  const listTabs = async () =>
    JSON.parse(textOf((await client.callTool({ name: 'list_tabs', arguments: {} })) as never)) as {
      tabs: Array<{ id: number }>;
    };

  it('garbage, unknown types, wrong shapes and replies to unknown ids are logged and dropped', async () => {
    const frames = [
      'not json at all {',
      '[]',
      'null',
      JSON.stringify({ type: 'selfDestruct' }),
      JSON.stringify({ type: 'tabClosed', tabId: 'seven' }),
      JSON.stringify({ type: 'toolsChanged', tabId: 7, tools: [{ name: 'x' }] }),
      JSON.stringify({ type: 'toolResult', callId: 'c99.s999', result: { content: [] } }),
      JSON.stringify({ type: 'response', requestId: 'nobody', result: {} }),
      JSON.stringify({ type: 'connected', requestId: 'c1.s424242', browser: { name: 'x', version: '1' }, tabs: [] }),
    ];
    for (const frame of frames) extension.send(frame);
    extension.send(Buffer.from([0, 1, 2, 3]), { binary: true });
    extension.send(JSON.stringify({ type: 'ping' }));
    await waitFor(() => received.some((message) => message.type === 'pong'), 5_000, 'the pong after the garbage');
    assert.equal((stderr.match(/"event":"link.rejected"/g) ?? []).length, 7, stderr);
    assert.equal((stderr.match(/"event":"link.unknown-reply"/g) ?? []).length, 3, stderr);
    assert.deepEqual(
      (await listTabs()).tabs.map((tab) => tab.id),
      [7],
      'the tabs known before are kept',
    );
  });

  it('a frame over 4× the message cap closes that socket only; the extension reconnects and state comes back', async () => {
    const closed = new Promise<number>((done) => extension.once('close', (code) => done(code)));
    extension.send(JSON.stringify({ type: 'tabUpdated', pad: 'x'.repeat(4 * MAX_MESSAGE_BYTES + 10) }));
    assert.equal(await closed, 1009);
    extension = new WebSocket(`ws://127.0.0.1:${machine.port}/`, { origin: EXTENSION_ORIGIN });
    await authenticateListener(extension, machine.token);
    extension.on('message', answer);
    // The session reconnects by itself (the agent had connected) and keeps serving.
    await waitFor(
      async () => !(await client.callTool({ name: 'list_tabs', arguments: {} })).isError,
      5_000,
      'the session to reconnect',
    );
    assert.deepEqual(
      (await listTabs()).tabs.map((tab) => tab.id),
      [7],
    );
  });

  it('peers are refused without the token or with a browser Origin', async () => {
    const attempt = (url: string, headers: Record<string, string>) =>
      new Promise<number | 'open'>((done) => {
        const socket = new WebSocket(url, { headers });
        socket.on('open', () => {
          socket.close();
          done('open');
        });
        socket.on('unexpected-response', (_request, response) => done(response.statusCode ?? 0));
        socket.on('error', () => done(0));
      });
    const base = `ws://127.0.0.1:${machine.port}/peer`;
    assert.equal(await attempt(base, { origin: 'https://evil.example' }), 403);
    assert.equal(await attempt(base, { origin: EXTENSION_ORIGIN }), 403);
    assert.equal(await attempt(base, {}), 'open');
    const wrong = new WebSocket(base);
    await assert.rejects(authenticateListener(wrong, 'wrong'), /pairing token/);
  });

  it('a peer sending garbage is logged, and its valid requests still work', async () => {
    const peer = new WebSocket(`ws://127.0.0.1:${machine.port}/peer`);
    await authenticateListener(peer, machine.token);
    const replies: Array<Record<string, unknown>> = [];
    peer.on('message', (raw) => replies.push(JSON.parse(raw.toString()) as Record<string, unknown>));
    peer.send('{{{');
    peer.send(JSON.stringify({ type: 'openTab', requestId: 'x'.repeat(101), url: 'https://a.example', focus: true }));
    peer.send(JSON.stringify({ type: 'connect', requestId: 'p1' }));
    await waitFor(() => replies.find((reply) => reply.type === 'connected'), 5_000, 'the peer connect reply');
    const tooLong = await waitFor(() => replies.find((reply) => reply.type === 'response'), 5_000, 'a refusal');
    assert.match(JSON.stringify(tooLong), /longer than 100/);
    assert.equal(replies.find((reply) => reply.type === 'connected')?.requestId, 'p1');
    assert.match(stderr, /"event":"peer.rejected"/);
    peer.close();
  });
});

describe('bad input on stdio', () => {
  let child: ChildProcessWithoutNullStreams;
  let home: Machine;
  let stdout = '';

  before(async () => {
    const port = await freePort();
    home = await newMachine();
    child = spawn(process.execPath, [serverBin, '--port', String(port)], {
      env: {
        ...process.env,
        TABMCP_LOG: 'silent',
        TABMCP_HOME: home.home,
        TABMCP_TOKEN: 'stdio-token-0123456789abcdef',
      },
    });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
  });

  after(() => {
    child?.kill();
    home?.close();
  });

  it('answers garbage lines with JSON-RPC errors and keeps serving', async () => {
    const lines = [
      'this is not json',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"',
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'no/such/method' }),
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 42 } }),
      JSON.stringify({
        jsonrpc: '2.0',
        id: 4,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'list_tabs', arguments: {} } }),
      JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list' }),
    ];
    for (const line of lines) child.stdin.write(`${line}\n`);
    const replies = await waitFor(
      () => {
        const parsed = stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { id?: number; error?: { message: string }; result?: unknown });
        // JSON-RPC answers need not come in order: tools/list can answer before the tools/call sent ahead of it.
        const answered = new Set(parsed.map((reply) => reply.id));
        return answered.has(5) && answered.has(6) && parsed;
      },
      5_000,
      'the replies to tools/call and tools/list',
    );
    const byId = new Map(replies.map((reply) => [reply.id, reply]));
    assert.ok(byId.get(2)?.error, 'unknown method: JSON-RPC error');
    assert.ok(byId.get(3)?.error, 'bad params: JSON-RPC error');
    assert.match(JSON.stringify(byId.get(5)), /call connect_browser first/);
    assert.match(JSON.stringify(byId.get(6)), /connect_browser/);
    assert.equal(child.exitCode, null, 'still running');
  });
});
