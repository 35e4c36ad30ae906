import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ListenerSet } from '../src/index';

interface Events {
  up: () => void;
  down: (reason: string) => void;
}

describe('ListenerSet', () => {
  it('tells every listener, in the order they subscribed, until each unsubscribes', () => {
    const set = new ListenerSet<Events>();
    const heard: string[] = [];
    const stopFirst = set.on('down', (reason) => heard.push(`first ${reason}`));
    set.on('down', (reason) => heard.push(`second ${reason}`));
    set.on('up', () => heard.push('up'));
    set.emit('down', 'a');
    stopFirst();
    set.emit('down', 'b');
    assert.deepEqual(heard, ['first a', 'second a', 'second b']);
  });

  it('keeps the same function added twice as two subscriptions', () => {
    const set = new ListenerSet<Events>();
    let count = 0;
    const listener = () => {
      count += 1;
    };
    const stop = set.on('up', listener);
    set.on('up', listener);
    stop();
    set.emit('up');
    assert.equal(count, 1);
  });

  it('lets the others hear an event when one listener throws, then rethrows', () => {
    const set = new ListenerSet<Events>();
    const heard: string[] = [];
    set.on('up', () => {
      throw new Error('broken listener');
    });
    set.on('up', () => heard.push('second'));
    assert.throws(() => set.emit('up'), /broken listener/);
    assert.deepEqual(heard, ['second']);
  });
});
