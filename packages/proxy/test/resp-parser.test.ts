import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { encodeCommand, RespError, RespParser, type RespValue } from '../src/redis/resp-parser';

function encodeValue(value: RespValue): string {
  if (value === null) return '$-1\r\n';
  if (typeof value === 'number') return `:${value}\r\n`;
  if (value instanceof RespError) return `-${value.message}\r\n`;
  if (Array.isArray(value)) return `*${value.length}\r\n${value.map(encodeValue).join('')}`;
  return `$${Buffer.byteLength(value)}\r\n${value}\r\n`;
}

const respValue: fc.Arbitrary<RespValue> = fc.letrec<{ value: RespValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'grapheme' }),
    fc.integer(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
  ),
})).value;

describe('RESP parser', () => {
  it('decodes any value split at any byte boundary', () => {
    fc.assert(
      fc.property(
        fc.array(respValue, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (values, cuts) => {
          const bytes = Buffer.from(values.map(encodeValue).join(''));
          const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((x, y) => x - y);
          const decoded: RespValue[] = [];
          const parser = new RespParser((value) => decoded.push(value));
          let start = 0;
          for (const point of [...points, bytes.length]) {
            parser.feed(bytes.subarray(start, point));
            start = point;
          }
          assert.deepEqual(decoded, values);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads simple strings, errors, integers, null arrays and binary-safe bulk strings', () => {
    const decoded: RespValue[] = [];
    const parser = new RespParser((value) => decoded.push(value));
    parser.feed(Buffer.from('+OK\r\n-ERR boom\r\n:42\r\n*-1\r\n$4\r\na\r\nb\r\n'));
    assert.deepEqual(decoded, ['OK', new RespError('ERR boom'), 42, null, 'a\r\nb']);
    assert.throws(() => parser.feed(Buffer.from('?what\r\n')), /Unexpected RESP type/);
  });

  it('encodes commands with byte lengths (not string lengths)', () => {
    assert.equal(encodeCommand(['SET', 'k', 'é']), '*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\né\r\n');
  });
});
