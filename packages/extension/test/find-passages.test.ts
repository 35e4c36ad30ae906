import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findPassages } from '../src/content/dom-tools/find';

/** A list of messages as a page read writes it: every line holds "Reply" and "message", one number each. */
const MESSAGES = [4993, 4994, 4995, 49930, 5]
  .map((number) => `Message #${number} the parcel left the depot [button "Reply to message #${number}" t${number}]`)
  .join('\n');

describe('find in page', () => {
  it('a number in the query names one thing: lines about other numbers are no match', () => {
    const missing = findPassages(MESSAGES, 'Reply to message #5000', 3_000);
    assert.equal(missing.passages, 0, missing.text);
    const found = findPassages(MESSAGES, 'Reply to message #4993', 3_000);
    assert.equal(found.passages, 1, found.text);
    assert.match(found.text, /#4993 /);
    const one = findPassages(MESSAGES, 'message 5', 3_000);
    assert.deepEqual(one.text.match(/Message #\d+/g), ['Message #5'], 'a whole number, not a part of 4995');
  });

  it('without a number, the lines with most of the words', () => {
    const found = findPassages(MESSAGES, 'reply message', 3_000);
    assert.equal(found.passages, 5);
  });
});
