// ws (un)masks frame payloads one byte at a time in JavaScript unless the native `bufferutil` is
// installed. tabmcp runs without V8's optimizing compilers (small-heap.ts), where that loop costs
// ~40 ns a byte: 4 ms for each 100 KB a page tool answers with. build.mjs hands ws this module as
// its `bufferutil`, which XORs four bytes at a time through a Uint32Array view: ~5× faster there.

/** Below this, the views cost more than they save. */
const WORD_WISE_FROM = 64;

/** XORs `bytes` in place with the 4-byte WebSocket `mask`, whose byte 0 applies at index 0. */
function xorInPlace(bytes: Uint8Array, mask: Uint8Array): void {
  const length = bytes.length;
  let index = 0;
  if (length >= WORD_WISE_FROM) {
    // Up to the first 4-byte boundary of the underlying memory, then whole words.
    const head = (4 - (bytes.byteOffset & 3)) & 3;
    for (; index < head; index++) bytes[index] = (bytes[index] ?? 0) ^ (mask[index & 3] ?? 0);
    const words = (length - index) >>> 2;
    const rotated = new Uint8Array(4);
    for (let byte = 0; byte < 4; byte++) rotated[byte] = mask[(index + byte) & 3] ?? 0;
    // Read back through the platform's own byte order, so the word matches the bytes it covers.
    const maskWord = new Uint32Array(rotated.buffer)[0] ?? 0;
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + index, words);
    for (let word = 0; word < words; word++) view[word] = (view[word] ?? 0) ^ maskWord;
    index += words * 4;
  }
  for (; index < length; index++) bytes[index] = (bytes[index] ?? 0) ^ (mask[index & 3] ?? 0);
}

/** bufferutil's `unmask`: the payload of a received frame, in place. */
export function unmask(buffer: Uint8Array, mask: Uint8Array): void {
  xorInPlace(buffer, mask);
}

/** bufferutil's `mask`: `length` bytes of `source` into `output` from `offset`, masked. */
export function mask(
  source: Uint8Array,
  maskBytes: Uint8Array,
  output: Uint8Array,
  offset: number,
  length: number,
): void {
  output.set(source.subarray(0, length), offset);
  xorInPlace(output.subarray(offset, offset + length), maskBytes);
}
