import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Handles } from '../src/content/dom-tools/handles';
import { handlesOf, withoutHandles } from '../src/content/dom-tools/line-handles';
import { removedLine } from '../src/content/dom-tools/removed-lines';

/** Stands in for a DOM element: Handles keeps only weak references and asks these two things. */
const element = (localName: string) => ({ localName, isConnected: true }) as unknown as Element;
const describeIt = (node: Element) => node.localName;

/** Handles of controls in a frame of another origin (docs/dom-tools.md, "Handles"; decision 328). */
describe("a frame's handles nest under its iframe's", () => {
  it("a frame's document writes and resolves its handles under its iframe's handle in the parent", () => {
    const frame = new Handles(describeIt, () => 'b', 'k512.');
    const field = element('input');
    const handle = frame.of(field);
    assert.match(handle, /^k512\.b\d{3}$/);
    assert.deepEqual(frame.resolve(handle), { element: field });
    // The same number without the frame's prefix is not this frame's handle.
    assert.ok('error' in frame.resolve(handle.slice('k512.'.length)));
  });

  it('the parent hands a handle that goes through one of its iframes to that iframe, whole', () => {
    const page = new Handles(describeIt, () => 'k');
    const iframe = element('iframe');
    const frameHandle = page.of(iframe);
    assert.deepEqual(page.inFrame(`${frameHandle}.b301`), { frame: iframe, handle: `${frameHandle}.b301` });
    assert.deepEqual(page.inFrame(`${frameHandle}.b301.c77`), { frame: iframe, handle: `${frameHandle}.b301.c77` });
    assert.equal(page.inFrame(frameHandle), undefined, "the iframe's own handle is the page's");
    const button = page.of(element('button'));
    assert.match(String((page.inFrame(`${button}.b301`) as { error?: string }).error), /is no frame/);
  });

  it('a nested handle is a handle to the page read, its change report and its removed lines', () => {
    const line = 'Card number [textbox = "" k512.b301] [button "Pay" k512.b733.c9]';
    assert.equal(handlesOf(line), ' k512.b301] k512.b733.c9]');
    assert.equal(withoutHandles(line), 'Card number [textbox = ""] [button "Pay"]');
    assert.equal(removedLine(line), 'Card number [textbox = ""] [button "Pay"]');
  });
});
