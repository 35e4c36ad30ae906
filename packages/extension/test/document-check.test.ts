import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DOCUMENT_KEY, documentOf } from '@tabmcp/protocol';
import { callForThisDocument, markedTools } from '../src/content/document-check';
import { NAVIGATING_META } from '../src/navigation-meta';

const thisDocument = documentOf(markedTools([{ name: 'x', inputSchema: { type: 'object' } }])[0]) as string;

/** Issue 25: the content script refuses a call made from another document's tool list. */
describe('a call checked against this document', () => {
  it('runs a call made for this document, without the id in its arguments, and names this document in its answer', async () => {
    const seen: unknown[] = [];
    const answer = await callForThisDocument(
      { name: 'click_continue', arguments: { value: 'a', [DOCUMENT_KEY]: thisDocument } },
      async (params) => {
        seen.push(params);
        return { content: [{ type: 'text', text: 'done' }] };
      },
    );
    assert.deepEqual(seen, [{ name: 'click_continue', arguments: { value: 'a' } }]);
    assert.equal(documentOf(answer), thisDocument);
  });

  it('refuses a call made for another document before any tool sees it', async () => {
    let ran = false;
    const answer = (await callForThisDocument(
      { name: 'click_continue', arguments: { [DOCUMENT_KEY]: 'another1234' } },
      async () => {
        ran = true;
        return 'ran';
      },
    )) as { isError?: boolean; content: Array<{ text: string }> };
    assert.equal(ran, false);
    assert.equal(answer.isError, true);
    assert.match(answer.content[0]?.text ?? '', /^The page changed since the tool list was read: "click_continue"/);
    assert.equal(documentOf(answer), thisDocument, 'the refusal names the page now shown');
  });

  it('runs a call that names no document, and leaves a navigating answer for the background to report', async () => {
    const navigating = await callForThisDocument({ name: 'open_link', arguments: {} }, async () => ({
      content: [],
      _meta: { [NAVIGATING_META]: true },
    }));
    assert.equal(documentOf(navigating), undefined);
    assert.equal(documentOf(await callForThisDocument({ name: 'a' }, async () => 'text')), thisDocument);
  });
});
