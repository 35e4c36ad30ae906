import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { mask, unmask } from '../src/link/ws-masking';

/** ws's own byte-at-a-time loops (ws/lib/buffer-util.js), the reference. */
function referenceMask(source: Uint8Array, key: Uint8Array, output: Uint8Array, offset: number, length: number) {
  for (let index = 0; index < length; index++) output[offset + index] = (source[index] ?? 0) ^ (key[index & 3] ?? 0);
}

/** A view into a larger pooled buffer at every alignment, as ws's payloads are. */
function payload(length: number, start: number): Buffer {
  return randomBytes(length + start + 8).subarray(start, start + length);
}

const LENGTHS = [0, 1, 3, 4, 31, 63, 64, 65, 66, 67, 100, 1_000, 65_537];

describe('WebSocket masking handed to ws as bufferutil (link/ws-masking.ts)', () => {
  it('unmasks in place exactly as ws does, at every length and alignment', () => {
    for (const length of LENGTHS) {
      for (let start = 0; start < 4; start++) {
        const key = randomBytes(4);
        const bytes = payload(length, start);
        const expected = Buffer.alloc(length);
        referenceMask(bytes, key, expected, 0, length);
        const before = Buffer.from(bytes.buffer.slice(0));
        unmask(bytes, key);
        assert.deepEqual(Buffer.from(bytes), expected, `length ${length}, offset ${start}`);
        const after = Buffer.from(bytes.buffer);
        const outside = (buffer: Buffer) =>
          Buffer.concat([buffer.subarray(0, bytes.byteOffset), buffer.subarray(bytes.byteOffset + length)]);
        assert.deepEqual(outside(after), outside(before), 'bytes outside the payload are untouched');
      }
    }
  });

  it('masks into an output at an offset exactly as ws does, leaving the source alone', () => {
    for (const length of LENGTHS) {
      for (let start = 0; start < 4; start++) {
        const key = randomBytes(4);
        const source = payload(length + 5, start);
        const sourceCopy = Buffer.from(source);
        const offset = 2 + start;
        const output = Buffer.alloc(length + 10, 0xaa);
        const expected = Buffer.alloc(length + 10, 0xaa);
        referenceMask(source, key, expected, offset, length);
        mask(source, key, output, offset, length);
        assert.deepEqual(output, expected, `length ${length}, alignment ${start}`);
        assert.deepEqual(source, sourceCopy);
      }
    }
  });
});
