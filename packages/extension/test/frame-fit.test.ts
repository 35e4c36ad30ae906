import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExtensionToServer, MAX_MESSAGE_BYTES, parseMessage, utf8Length } from '@tabmcp/protocol';
import { fitFrame } from '../src/background/frame-fit';

/** Issue 13, findings 2 and 13: every frame the extension sends fits the server's cap in UTF-8 bytes. */
function sent(message: Parameters<typeof fitFrame>[0]) {
  const fitted = fitFrame(message);
  assert.ok(fitted, 'something is sent');
  assert.ok(utf8Length(fitted.text) <= MAX_MESSAGE_BYTES, 'within the cap in UTF-8 bytes');
  const parsed = parseMessage(ExtensionToServer, fitted.text, 'frame');
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error.message);
  return { value: parsed.value, note: fitted.note };
}

describe('security: frames to the server fit its cap', () => {
  it('a result of 1.5 M "€" (4.5 MB) becomes an error for its call', () => {
    const text = '€'.repeat(1_500_000);
    assert.ok(JSON.stringify(text).length < MAX_MESSAGE_BYTES, 'under the cap in UTF-16 units');
    const { value, note } = sent({
      type: 'toolResult',
      callId: 'c1.s1',
      result: { content: [{ type: 'text', text }] },
    });
    assert.equal(value.type === 'toolResult' && value.callId, 'c1.s1');
    assert.match(value.type === 'toolResult' ? (value.error ?? '') : '', /over the \d+-byte limit/);
    assert.ok(note);
  });

  it('an oversized response becomes an error response', () => {
    const { value } = sent({ type: 'response', requestId: 'r1', result: { blob: '€'.repeat(1_500_000) } });
    assert.ok(value.type === 'response' && value.error?.message.includes('byte limit'));
  });

  it('a 200 KB error text is cut, not dropped', () => {
    const { value } = sent({ type: 'toolResult', callId: 'c1', error: 'x'.repeat(200_000) });
    assert.ok(value.type === 'toolResult' && value.error?.endsWith('(cut)'));
  });

  it('an oversized hubToolsChanged keeps the tools that fit', () => {
    const tools = Array.from({ length: 400 }, (_, i) => ({
      name: `website_tool_a_tab1_t${i}`,
      description: '€'.repeat(16_000),
      inputSchema: { type: 'object' as const },
    }));
    const { value } = sent({ type: 'hubToolsChanged', revision: 1, changed: tools, removed: [] });
    const kept = value.type === 'hubToolsChanged' ? value.changed.length : 0;
    assert.ok(kept > 0 && kept < 400, `kept ${kept}`);
  });

  it('small frames pass untouched', () => {
    const fitted = fitFrame({ type: 'ping' });
    assert.deepEqual(fitted, { text: '{"type":"ping"}' });
  });
});
