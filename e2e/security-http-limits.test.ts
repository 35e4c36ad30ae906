import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BoundedEventStore, MAX_EVENT_BYTES } from '../packages/server/src/mcp/event-store';
import { httpBearerToken } from '../packages/server/src/mcp/http-token';
import { type HttpTabmcp, startHttpTabmcp } from '../test-support/http-tabmcp';
import { type Machine, newMachine } from '../test-support/server-harness';

/**
 * Issue 26, low: `tabmcp --http`'s memory and sessions. The attacker is a local client holding the
 * bearer token (another agent of the same user gone wrong): it must not hold unbounded memory or lock
 * every other client out.
 */
describe('security: --http limits hold in bytes and streams (issue 26)', () => {
  let machine: Machine;
  let tabmcp: HttpTabmcp;
  let authorization = '';
  const held: AbortController[] = [];
  before(async () => {
    machine = await newMachine();
    authorization = `Bearer ${httpBearerToken(machine.token)}`;
    tabmcp = await startHttpTabmcp(machine);
  });
  after(async () => {
    for (const stop of held) stop.abort();
    await tabmcp?.stop();
    machine?.close();
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(tabmcp.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization,
        ...headers,
      },
      body: JSON.stringify(body),
    });

  it("a session's event store is bounded in bytes; the newest event is always kept", async () => {
    const store = new BoundedEventStore();
    const big = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', id: n, result: { text: 'x'.repeat(1024 ** 2) } });
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push(await store.storeEvent('s', big(i)));
    const kept = (await Promise.all(ids.map((id) => store.getStreamIdForEventId(id)))).filter(Boolean).length;
    assert.ok(kept * 1024 ** 2 <= MAX_EVENT_BYTES, `${kept} events of 1 MiB kept`);
    const huge = await store.storeEvent('s', {
      jsonrpc: '2.0',
      id: 'h',
      result: { text: 'y'.repeat(MAX_EVENT_BYTES + 10) },
    });
    assert.equal(await store.getStreamIdForEventId(huge), 's');
  });

  it('GET listen streams are capped with a clear error; new clients still get a session', async () => {
    let refused: Response | undefined;
    for (let i = 0; i < 32 && !refused; i++) {
      const initialized = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'listener', version: '1' } },
      });
      await initialized.body?.cancel();
      assert.equal(initialized.status, 200, 'a new client gets a session');
      const session = initialized.headers.get('mcp-session-id') ?? '';
      const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).body?.cancel();
      const stop = new AbortController();
      held.push(stop);
      const stream = await fetch(tabmcp.url, {
        method: 'GET',
        headers: { accept: 'text/event-stream', authorization, ...headers },
        signal: stop.signal,
      });
      if (stream.status === 429) refused = stream;
      else assert.equal(stream.status, 200);
    }
    assert.ok(refused, 'some GET stream was refused');
    assert.match(
      ((await refused.json()) as { error: { message: string } }).error.message,
      /At most 16 GET listen streams/,
    );
    const another = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'late', version: '1' } },
    });
    await another.body?.cancel();
    assert.equal(another.status, 200, 'a client arriving after the listeners still gets a session');
  });

  it('2026-07-28 subscriptions/listen streams are capped with a clear error', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const modern = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' };
    let refused: Response | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const stop = new AbortController();
      held.push(stop);
      const response = await fetch(tabmcp.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization,
          ...modern,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'subscriptions/listen',
          params: { notifications: { toolsListChanged: true }, _meta: meta },
        }),
        signal: stop.signal,
      });
      if (response.status === 429) refused = response;
      else assert.equal(response.status, 200);
    }
    assert.ok(refused, 'some listen stream was refused');
    assert.match(
      ((await refused.json()) as { error: { message: string } }).error.message,
      /At most 32 subscriptions\/listen/,
    );
  });
});
