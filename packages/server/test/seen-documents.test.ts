import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DOCUMENT_KEY, type Tool } from '@tabmcp/protocol';
import { SeenDocuments } from '../src/core/seen-documents';

const tool = (document: string, meta: Record<string, unknown> = {}): Tool => ({
  name: 'click_continue',
  inputSchema: { type: 'object' },
  _meta: { ...meta, [DOCUMENT_KEY]: document },
});
const answer = (document: string | undefined, isError = false) => ({
  content: [{ type: 'text', text: 'done' }],
  ...(isError ? { isError } : {}),
  ...(document ? { _meta: { [DOCUMENT_KEY]: document, other: 1 } } : {}),
});

/** Issue 25: a page call names the document whose tools the agent saw (docs/dom-tools.md, "Which page a call is for"). */
describe('the documents an agent saw', () => {
  it('a call carries the document of the list the agent read, nothing before it read one', () => {
    const seen = new SeenDocuments();
    assert.deepEqual(seen.carry(7, { value: 'a' }), { value: 'a' });
    seen.listed(7, [tool('page1aaaa')]);
    assert.deepEqual(seen.carry(7, { value: 'a' }), { value: 'a', [DOCUMENT_KEY]: 'page1aaaa' });
    assert.deepEqual(seen.carry(8, {}), {}, 'per tab');
  });

  it('an answer names the document that gave it, and loses the id on its way to the agent', () => {
    const seen = new SeenDocuments();
    seen.listed(7, [tool('page1aaaa')]);
    const refused = seen.answered(7, answer('page2bbbb', true));
    assert.deepEqual(refused._meta, { other: 1 }, 'the id is taken out, the rest kept');
    assert.equal(seen.carry(7, {})[DOCUMENT_KEY], 'page2bbbb', 'the page that answered is the one seen now');
  });

  it('an answer that names no document (a navigation report without tools, a dialog) keeps the last one seen (issue 38)', () => {
    const seen = new SeenDocuments();
    seen.listed(7, [tool('page1aaaa')]);
    seen.answered(7, answer(undefined));
    assert.equal(seen.carry(7, {})[DOCUMENT_KEY], 'page1aaaa', 'the next call still names the page the agent saw');
    seen.answered(7, answer('page2bbbb'));
    assert.equal(seen.carry(7, {})[DOCUMENT_KEY], 'page2bbbb', 'a report naming the new page moves it on');
    seen.listed(7, [tool('page2bbbb')]);
    seen.answered(7, answer(undefined, true));
    assert.equal(seen.carry(7, {})[DOCUMENT_KEY], 'page2bbbb', 'a failed call changes nothing');
    seen.forget(7);
    assert.deepEqual(seen.carry(7, {}), {});
  });

  it('an id that is no id of ours is ignored', () => {
    const seen = new SeenDocuments();
    seen.listed(7, [tool('"><script>')]);
    assert.deepEqual(seen.carry(7, {}), {});
  });
});
