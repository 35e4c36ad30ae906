// Decision 376, the logic alone: what a node sends another node's clients goes out in the order given, also when a
// publish fails on the way (cluster-frame-order.test.ts drives the same across two proxy processes on real Redis).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OrderedOutbox } from '../src/core/ordered-outbox';
import type { Envelope } from '../src/wire/envelopes';

const note = (n: number, size = 0): Envelope => ({
  t: 'ext-notify',
  from: 'browser-node',
  connectionIds: ['conn-1'],
  method: 'tabmcp/waitingForPerson',
  params: { n, padding: 'x'.repeat(size) },
});

/** A bus to one node whose link is up or down; `stall` keeps the next publishes in flight until `settle`. */
function rig() {
  const delivered: number[] = [];
  const inFlight: Array<{ envelope: Envelope; resolve: () => void; reject: (error: Error) => void }> = [];
  const link = { up: true, stall: false };
  const outbox = new OrderedOutbox((_nodeId, envelope) => {
    if (link.stall) {
      return new Promise<void>((resolve, reject) => inFlight.push({ envelope, resolve, reject }));
    }
    if (!link.up) return Promise.reject(new Error('link down'));
    delivered.push(numberOf(envelope));
    return Promise.resolve();
  });
  /** The stalled publishes end: reached Redis while the link is up, failed otherwise (in the order sent). */
  const settle = () => {
    for (const publish of inFlight.splice(0)) {
      if (link.up) {
        delivered.push(numberOf(publish.envelope));
        publish.resolve();
      } else publish.reject(new Error('link dropped'));
    }
  };
  return { outbox, delivered, link, settle };
}

function numberOf(envelope: Envelope): number {
  return envelope.t === 'ext-notify' ? (envelope.params as { n: number }).n : -1;
}

/** Lets every settled publish run its callbacks. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('the ordered outbox (decision 376)', () => {
  it('holds what fails and keeps everything after it behind, even once the link is back', async () => {
    const { outbox, delivered, link } = rig();
    outbox.send('client-node', note(1));
    link.up = false;
    outbox.send('client-node', note(2));
    outbox.send('client-node', note(3));
    await settled();
    assert.equal(outbox.size, 2);
    link.up = true;
    outbox.send('client-node', note(4)); // before anyone flushed: it waits behind 2 and 3, and starts them
    outbox.send('client-node', note(5));
    await outbox.flush();
    assert.deepEqual(delivered, [1, 2, 3, 4, 5]);
    assert.equal(outbox.size, 0);
  });

  it('publishes cut in flight are held in their order, ahead of what came after them', async () => {
    const { outbox, delivered, link, settle } = rig();
    link.stall = true;
    outbox.send('client-node', note(1));
    outbox.send('client-node', note(2));
    link.up = false;
    settle(); // the link drops with both in flight
    await settled();
    link.stall = false;
    link.up = true;
    outbox.send('client-node', note(3));
    await outbox.flush();
    assert.deepEqual(delivered, [1, 2, 3]);
  });

  it('past 16 MiB held, the oldest go and the rest keep their order', async () => {
    const { outbox, delivered, link } = rig();
    link.up = false;
    for (let n = 1; n <= 5; n++) outbox.send('client-node', note(n, 5 * 1024 * 1024));
    await settled();
    link.up = true;
    await outbox.flush();
    assert.deepEqual(delivered, [3, 4, 5]);
  });
});
