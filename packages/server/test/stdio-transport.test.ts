import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MESSAGE_BYTES } from '@tabmcp/protocol';
import { LineStdioServerTransport } from '../src/mcp/stdio-transport';

async function started() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new LineStdioServerTransport(stdin, stdout);
  const received: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  transport.onmessage = (message) => received.push(message);
  transport.onerror = (error) => errors.push(error);
  await transport.start();
  const written: unknown[] = [];
  let buffered = '';
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) written.push(JSON.parse(line));
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { stdin, transport, received, errors, written, settle };
}

describe('LineStdioServerTransport', () => {
  it('delivers messages split across chunks and several in one chunk', async () => {
    const t = await started();
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    t.stdin.write(ping.slice(0, 10));
    t.stdin.write(`${ping.slice(10)}\r\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    await t.settle();
    assert.deepEqual(
      t.received.map((message) => ('method' in message ? message.method : undefined)),
      ['ping', 'notifications/initialized'],
    );
    await t.transport.close();
  });

  it('answers a malformed request that has an id with Invalid Request, and ignores a malformed notification', async () => {
    const t = await started();
    t.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'p', method: 'tools/list', params: 5 })}\n`);
    t.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: { odd: true }, method: 'ping' })}\n`);
    t.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/x', params: 5 })}\n`);
    t.stdin.write('not json\n');
    await t.settle();
    assert.equal(t.received.length, 0);
    assert.equal(t.written.length, 2);
    const [first, second] = t.written as Array<{ id: unknown; error: { code: number; message: string } }>;
    assert.equal(first?.id, 'p');
    assert.equal(first?.error.code, -32600);
    assert.equal(second?.id, null, 'an id that is neither a string nor a number is answered with null');
    assert.equal(t.errors.length, 4, 'every bad line is reported');
    await t.transport.close();
  });

  it('skips a line longer than the cap and reads the next one', async () => {
    const t = await started();
    const chunk = 'x'.repeat(1024 * 1024);
    for (let sent = 0; sent <= MAX_MESSAGE_BYTES; sent += chunk.length) t.stdin.write(chunk);
    t.stdin.write(`tail of the long line\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n`);
    await t.settle();
    assert.equal(t.received.length, 1);
    assert.match(String(t.errors[0]?.message), /longer than/);
    await t.transport.close();
  });
});
