import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { removedLine } from '../src/content/dom-tools/removed-lines';

/** What an action's answer says went away (docs/dom-tools.md, "Results"). */
describe('a removed line is said briefly', () => {
  it('drops the handles: they name elements that are gone', () => {
    assert.equal(
      removedLine('[checkbox ☐ "Water plants" k12] Water plants [button "Delete" k13]'),
      '[checkbox ☐ "Water plants"] Water plants [button "Delete"]',
    );
  });

  it('writes a re-rendered run of one role as its first, a count and its last', () => {
    const days = Array.from({ length: 30 }, (_, day) => `[clickable "November ${day + 1}, 2026" h${100 + day}]`);
    assert.equal(
      removedLine(`${days.join(' ')} 123456`),
      '[clickable "November 1, 2026"] …28 more clickable… [clickable "November 30, 2026"] 123456',
    );
  });

  it('keeps short runs, runs broken by text and runs of mixed roles whole', () => {
    const line =
      '[link "A" a1](/a) [link "B" a2](/b) [link "C" a3](/c) | [button "1" b1] and [button "2" b2] [tab "x" c1]';
    assert.equal(
      removedLine(line),
      '[link "A"](/a) [link "B"](/b) [link "C"](/c) | [button "1"] and [button "2"] [tab "x"]',
    );
  });

  it('counts a run of links with their addresses', () => {
    const links = ['a', 'b', 'c', 'd', 'e'].map((name, index) => `[link "${name}" l${index}](/${name})`).join(' ');
    assert.equal(removedLine(`Share: ${links}.`), 'Share: [link "a"](/a) …3 more link… [link "e"](/e).');
  });
});
