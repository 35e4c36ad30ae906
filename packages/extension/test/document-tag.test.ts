import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adoptDocumentTag, documentTag, documentTagSettled } from '../src/content/document-tag';
import { DOCUMENT_TAGS } from '../src/document-tag';

/** Whether a promise has settled by the next turn of the event loop. */
const settledNow = (promise: Promise<void>) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);

// One document per test process: the content script's letter is module state, as in a page.
describe("a document's handle letter when the background does not answer", () => {
  it('the first call waits, then the document picks a letter of its own and keeps it when the answer comes late', async () => {
    const first = documentTagSettled();
    assert.equal(await settledNow(first), false, 'the first call waits for the letter');
    await first;
    assert.equal(await settledNow(documentTagSettled()), true, 'no call waits again, answer or not');
    const own = documentTag();
    assert.ok(DOCUMENT_TAGS.includes(own) && own.length === 1, own);
    const late = DOCUMENT_TAGS[(DOCUMENT_TAGS.indexOf(own) + 1) % DOCUMENT_TAGS.length] ?? 'a';
    adoptDocumentTag(late);
    assert.equal(documentTag(), own, 'handles already out keep their letter');
    assert.equal(await settledNow(documentTagSettled()), true, 'later calls do not wait');
  });
});
