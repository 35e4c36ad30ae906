import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hub } from '@tabmcp/hub';
import type { CallToolResult } from '@tabmcp/protocol';
import { MemoryTransport, tool } from './memory-transport';

/**
 * Issue 26, low: hub request ids were a counter (`call-1`, `call-2`…), so one tab's page could settle
 * a call sent to another tab with a forged result. The attacker is the page in the other tab.
 */
describe('security: a tab cannot answer a call sent to another tab (issue 26)', () => {
  it('ids are unguessable, and an answer from another tab, even with the right id, settles nothing', async () => {
    const transport = new MemoryTransport();
    const hub = new Hub({ transport });
    transport.connect(1, 'http://127.0.0.1:8080/bank/', [tool('balance')], () => 'hang');
    transport.connect(2, 'http://127.0.0.1:8080/evil/', [tool('noop')]);
    const call = hub.callTool(1, 'balance', {}, 5_000);
    const sent = transport.sent.find(({ message }) => message.method === 'browser/executeTool')?.message;
    assert.ok(sent && 'id' in sent);
    const id = String(sent.id);
    assert.doesNotMatch(id, /^call-\d+$/, 'a counter can be guessed');
    const forged: CallToolResult = { content: [{ type: 'text', text: 'forged by tab 2' }] };
    // The page in tab 2 tries the guessable ids, and even the real one.
    for (const guess of ['call-1', 'call-2', 'call-3', id]) {
      transport.onmessage?.(2, { jsonrpc: '2.0', id: guess, result: { success: true, payload: forged } }, undefined);
    }
    const genuine: CallToolResult = { content: [{ type: 'text', text: 'from tab 1' }] };
    transport.onmessage?.(1, { jsonrpc: '2.0', id, result: { success: true, payload: genuine } }, undefined);
    assert.deepEqual(await call, genuine);
  });
});
