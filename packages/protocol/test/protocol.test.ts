import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  ContentToBackground,
  ErrorCode,
  EXTENSION_ID,
  EXTENSION_PUBLIC_KEY,
  ExtensionToServer,
  parseMessage,
  TabEnvelope,
} from '../src/index';

describe('extension id', () => {
  it('is derived from the pinned public key', () => {
    const hex = createHash('sha256').update(Buffer.from(EXTENSION_PUBLIC_KEY, 'base64')).digest('hex').slice(0, 32);
    const id = [...hex].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('');
    assert.equal(id, EXTENSION_ID);
  });
});

describe('parseMessage', () => {
  it('accepts a valid browser-link message', () => {
    const parsed = parseMessage(ExtensionToServer, JSON.stringify({ type: 'tabClosed', tabId: 4 }), 'message');
    assert.deepEqual(parsed, { ok: true, value: { type: 'tabClosed', tabId: 4 } });
  });

  it('names the field that is wrong', () => {
    const parsed = parseMessage(ExtensionToServer, JSON.stringify({ type: 'tabClosed', tabId: 'x' }), 'message');
    assert.equal(parsed.ok, false);
    if (!parsed.ok) {
      assert.equal(parsed.error.code, ErrorCode.InvalidRequest);
      assert.match(parsed.error.message, /tabId/);
    }
  });

  it('refuses garbage and oversize input with distinct codes', () => {
    const garbage = parseMessage(ExtensionToServer, '{nope', 'message');
    assert.equal(garbage.ok === false && garbage.error.code, ErrorCode.ParseError);
    const huge = parseMessage(ExtensionToServer, `"${'x'.repeat(100)}"`, 'message', 50);
    assert.equal(huge.ok === false && huge.error.code, ErrorCode.MessageTooLarge);
    const multiByte = parseMessage(ExtensionToServer, `"${'€'.repeat(30)}"`, 'message', 60);
    assert.equal(multiByte.ok === false && multiByte.error.code, ErrorCode.MessageTooLarge);
  });

  it('keeps unknown tool fields (schemas stay whole)', () => {
    const tool = {
      name: 'search',
      inputSchema: { type: 'object', properties: { q: { type: 'string', minLength: 2 } }, required: ['q'] },
      outputSchema: { type: 'object', properties: { hits: { type: 'number' } } },
      annotations: { readOnlyHint: true, vendorHint: 7 },
      _meta: { x: 1 },
    };
    const parsed = parseMessage(
      ContentToBackground,
      JSON.stringify({ jsonrpc: '2.0', method: 'browser/registerTools', params: { tools: [tool] } }),
      'port message',
    );
    assert.ok(parsed.ok);
    if (parsed.ok && 'method' in parsed.value && 'tools' in parsed.value.params)
      assert.deepEqual(parsed.value.params.tools[0], tool);
  });

  it("keeps a page's browser capabilities and docs/requirements.md#hub extensions on registerTools and updateTools", () => {
    const params = { tools: [], capabilities: { cacheSupported: true }, extensions: { 'example.com/token': 'abc' } };
    for (const method of ['browser/registerTools', 'browser/updateTools']) {
      const sent = method === 'browser/updateTools' ? { tools: [], extensions: params.extensions } : params;
      const parsed = parseMessage(
        ContentToBackground,
        JSON.stringify({ jsonrpc: '2.0', method, params: sent }),
        'port',
      );
      assert.ok(parsed.ok && 'method' in parsed.value, method);
      assert.deepEqual(parsed.value.params, sent, method);
    }
  });
});

describe('TabEnvelope', () => {
  it('matches MCP-B handshake and JSON-RPC payloads', () => {
    for (const payload of ['mcp-check-ready', { jsonrpc: '2.0', id: 1, method: 'tools/list' }]) {
      const result = TabEnvelope.safeParse({
        channel: 'mcp-default',
        type: 'mcp',
        direction: 'client-to-server',
        payload,
      });
      assert.ok(result.success);
    }
    assert.equal(
      TabEnvelope.safeParse({ channel: 'mcp-default', type: 'mcp', direction: 'sideways', payload: 1 }).success,
      false,
    );
  });
});
