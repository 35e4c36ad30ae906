import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode } from '@tabmcp/protocol';

/** Issue 27 P8 / issue 29 item 3: errors are classified by code, so a code must have one meaning. */
describe('error codes', () => {
  it('give every condition its own code: no two names share a value', () => {
    const byCode = new Map<number, string[]>();
    for (const [name, code] of Object.entries(ErrorCode)) byCode.set(code, [...(byCode.get(code) ?? []), name]);
    const shared = [...byCode].filter(([, names]) => names.length > 1);
    assert.deepEqual(shared, []);
  });

  it('keep the codes docs/requirements.md#remote-proxy fixes, and tab-not-found apart from "already connected"', () => {
    assert.equal(ErrorCode.ServerError, -32000);
    assert.equal(ErrorCode.AlreadyConnected, -32001);
    assert.notEqual(ErrorCode.TabNotFound, ErrorCode.AlreadyConnected);
  });

  it('stay in the JSON-RPC server-error range, or are JSON-RPC 2.0 codes', () => {
    const standard = new Set([-32700, -32600, -32601, -32602, -32603]);
    for (const [name, code] of Object.entries(ErrorCode)) {
      assert.ok(standard.has(code) || (code <= -32000 && code >= -32099), `${name} ${code}`);
    }
  });
});
