import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fuzzRuns } from '../../../test-support/fuzz-runs';
import { ErrorCode, ExtensionToServer, parseMessage, serializedSize, utf8Length } from '../src/index';

/** Issue 13: every size cap counts UTF-8 bytes, as the socket carries them, never UTF-16 units. */
const runs = fuzzRuns(300);

// Full code points (astral ones become surrogate pairs), mixed with the 2- and 3-byte ranges.
const unicodeText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\u0000', '\u202E'), maxLength: 400 }),
);

describe('fuzz: sizes in UTF-8 bytes', () => {
  it('utf8Length and serializedSize agree with what a socket sends', () => {
    fc.assert(
      fc.property(unicodeText, (text) => {
        assert.equal(utf8Length(text), Buffer.byteLength(text, 'utf8'));
        assert.equal(serializedSize({ text }), Buffer.byteLength(JSON.stringify({ text }), 'utf8'));
      }),
      { numRuns: runs },
    );
  });

  it('parseMessage refuses exactly the frames over the cap in UTF-8 bytes', () => {
    fc.assert(
      fc.property(unicodeText, fc.integer({ min: 16, max: 1_200 }), (pad, cap) => {
        const raw = JSON.stringify({ type: 'ping', pad });
        const parsed = parseMessage(ExtensionToServer, raw, 'frame', cap);
        const tooLarge = !parsed.ok && parsed.error.code === ErrorCode.MessageTooLarge;
        assert.equal(tooLarge, Buffer.byteLength(raw, 'utf8') > cap, `${raw.length} units, cap ${cap}`);
      }),
      { numRuns: runs },
    );
  });
});
