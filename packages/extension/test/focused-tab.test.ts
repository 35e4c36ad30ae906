// Issue 27 H6: the hub's active-tab marker is the active tab of the focused window, not the last activation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FocusedTab } from '../src/background/focused-tab';

describe('FocusedTab', () => {
  it('follows activation only in the focused window, and the focus between windows', () => {
    const focus = new FocusedTab();
    assert.equal(focus.activated(1, 10), 1, 'before any focus event, every activation counts');
    assert.equal(focus.focused(10), 1);
    assert.equal(focus.activated(2, 20), undefined, 'a tab activated in a window behind does not take the marker');
    assert.equal(focus.activated(3, 10), 3);
    assert.equal(focus.focused(20), 2, 'focusing the other window brings its active tab');
    assert.equal(focus.focused('none'), undefined, 'the browser losing focus moves nothing');
    assert.equal(focus.activated(4, 10), undefined);
    focus.windowClosed(20);
    assert.equal(focus.activated(5, 10), 5, 'with the focused window gone, activations count again');
  });
});
