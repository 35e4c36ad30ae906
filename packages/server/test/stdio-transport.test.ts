import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
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
    assert.equal(t.written.length, 3);
    const [first, second, third] = t.written as Array<{ id: unknown; error: { code: number; message: string } }>;
    assert.equal(first?.id, 'p');
    assert.equal(first?.error.code, -32600);
    assert.equal(second?.id, null, 'an id that is neither a string nor a number is answered with null');
    assert.equal(third?.id, null);
    assert.equal(third?.error.code, -32700, 'a line that is not JSON gets Parse error');
    assert.equal(t.errors.length, 4, 'every bad line is reported');
    assert.match(t.errors[3]?.message ?? '', /Unparseable MCP line skipped.*not json/);
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

  it('closes once however often close is called, and rejects a send after close', async () => {
    const t = await started();
    let closes = 0;
    t.transport.onclose = () => {
      closes += 1;
    };
    await t.transport.close();
    await t.transport.close();
    assert.equal(closes, 1);
    await assert.rejects(t.transport.send({ jsonrpc: '2.0', method: 'ping', id: 1 }), /closed/);
  });

  it('survives an EPIPE on stdout: reported, transport closed, process alive', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new LineStdioServerTransport(stdin, stdout);
    const errors: Error[] = [];
    let ended = false;
    transport.onerror = (error) => errors.push(error);
    transport.onended = () => {
      ended = true;
    };
    await transport.start();
    stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    assert.equal(errors[0]?.message, 'write EPIPE');
    assert.ok(ended, 'the transport closed itself');
  });

  it('never leaves a send waiting when stdout fails or closes before draining', async () => {
    const stdin = new PassThrough();
    // A stdout that never drains: the first write already reports a full buffer.
    const stdout = new PassThrough({ highWaterMark: 1 });
    const transport = new LineStdioServerTransport(stdin, stdout);
    transport.onerror = () => {};
    await transport.start();
    const waiting = transport.send({ jsonrpc: '2.0', method: 'ping', id: 1 });
    stdout.destroy(new Error('stdout broke'));
    await assert.rejects(waiting, /stdout broke|closed/);
    const another = new LineStdioServerTransport(new PassThrough(), new PassThrough({ highWaterMark: 1 }));
    await another.start();
    const pending = another.send({ jsonrpc: '2.0', method: 'ping', id: 2 });
    await another.close();
    await assert.rejects(pending, /closed/);
  });
});
