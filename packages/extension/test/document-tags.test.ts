import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tagFor } from '../src/background/document-tags';
import { DOCUMENT_TAGS } from '../src/document-tag';

describe('document tags: the letter of each document of a tab', () => {
  it('gives the last 20 documents of a tab 20 different letters, in turn', () => {
    const recent: Parameters<typeof tagFor>[0] = [];
    const tags = Array.from({ length: 45 }, (_, n) => tagFor(recent, `doc-${n}`));
    for (let start = 0; start + DOCUMENT_TAGS.length <= tags.length; start++) {
      assert.equal(new Set(tags.slice(start, start + DOCUMENT_TAGS.length)).size, DOCUMENT_TAGS.length);
    }
    assert.equal(recent.length, DOCUMENT_TAGS.length, 'only the latest documents are kept');
  });

  it('keeps the letter of a document whose Port connects again', () => {
    const recent: Parameters<typeof tagFor>[0] = [];
    const first = tagFor(recent, 'page-1');
    const second = tagFor(recent, 'page-2');
    assert.equal(tagFor(recent, 'page-1'), first);
    // A long-lived page reconnects every time the idle worker stops: that never moves the turn.
    for (let reconnect = 0; reconnect < DOCUMENT_TAGS.length + 5; reconnect++) {
      assert.equal(tagFor(recent, 'page-2'), second);
    }
    const third = tagFor(recent, 'page-3');
    assert.ok(third !== first && third !== second, `${first} ${second} ${third}`);
    assert.equal(recent.length, 3);
  });
});
