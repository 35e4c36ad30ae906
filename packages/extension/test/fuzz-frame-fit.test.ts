import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExtensionToServer, parseMessage } from '@tabmcp/protocol';
import fc from 'fast-check';
import { fuzzRuns } from '../../../test-support/fuzz-runs';
import { fitFrame } from '../src/background/frame-fit';

/** Issue 13: whatever the extension sends fits the cap in UTF-8 bytes and still parses. */
const runs = fuzzRuns(300);
const text = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀'), maxLength: 3_000 });
const tool = fc.record({
  name: fc.stringMatching(/^website_tool_[a-z]{1,8}$/),
  description: text,
  inputSchema: fc.constant({ type: 'object' as const }),
});
const message = fc.oneof(
  fc.record({
    type: fc.constant('toolResult' as const),
    callId: fc.stringMatching(/^c[0-9]{1,3}\.s[0-9]{1,3}$/),
    result: fc.record({ content: fc.array(fc.record({ type: fc.constant('text'), text }), { maxLength: 3 }) }),
  }),
  fc.record({ type: fc.constant('toolResult' as const), callId: fc.constant('c1'), error: text }),
  fc.record({ type: fc.constant('response' as const), requestId: fc.constant('r1'), result: text }),
  fc.record({
    type: fc.constant('hubToolsChanged' as const),
    revision: fc.nat(),
    changed: fc.array(tool, { maxLength: 6 }),
    removed: fc.constant<string[]>([]),
  }),
);

describe('fuzz: frames fitted to the link cap', () => {
  it('never exceed the cap in UTF-8 bytes, and always parse', () => {
    fc.assert(
      fc.property(message, fc.integer({ min: 1_000, max: 20_000 }), (sent, cap) => {
        const fitted = fitFrame(sent, cap);
        assert.ok(fitted);
        assert.ok(Buffer.byteLength(fitted.text, 'utf8') <= cap, `${Buffer.byteLength(fitted.text)} > ${cap}`);
        assert.ok(parseMessage(ExtensionToServer, fitted.text, 'frame', cap).ok);
      }),
      { numRuns: runs },
    );
  });
});
