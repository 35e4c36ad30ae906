import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decidedChoice } from '../src/content/find-page-server';

describe('page server discovery: when the choice of channel is final', () => {
  it('takes the first channel at once when it answers first (no grace period to wait out)', () => {
    assert.equal(decidedChoice([true, false], [false, false]), 0);
  });

  it('waits while a channel ahead of the one that answered may still answer', () => {
    assert.equal(decidedChoice([false, true], [false, false]), undefined);
  });

  it('takes a later channel once every channel ahead of it failed', () => {
    assert.equal(decidedChoice([false, true], [true, false]), 1);
  });

  it('gives up only when every channel failed', () => {
    assert.equal(decidedChoice([false, false], [true, false]), undefined);
    assert.equal(decidedChoice([false, false], [true, true]), -1);
  });
});
