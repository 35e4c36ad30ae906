import type { Envelope } from '../wire/envelopes';

/** Envelopes held at most this long: by then the caller's check has told it the path failed (reply-path.ts). */
const MAX_AGE_MS = 30_000;
/** And at most this much of them; past it the oldest go, and their callers are told by the same check. */
const MAX_BYTES = 16 * 1024 * 1024;

type State = 'sending' | 'held' | 'sent';

interface Entry {
  envelope: Envelope;
  state: State;
  /** Settles when the entry's publish in flight does: the drain waits for an earlier one before it sends. */
  done: Promise<void>;
  /** Set when first held. */
  bytes: number;
  heldAt: number;
}

interface Queue {
  /** Every envelope for the node not yet published, in the order given. */
  entries: Entry[];
  /** How many of them are held. */
  held: number;
}

/**
 * What the browsers here send the clients of one other node (answers, notifications, `ended`, and `calls-held`),
 * published in the order given, per node (decision 376): the proxy client takes the order it hears a browser's
 * frames in for the order the browser sent them (decision 361).
 *
 * While nothing is held, each envelope is published at once (Redis keeps the order of one connection's PUBLISHes).
 * One that cannot be published (a short Redis drop on this side, issue 39 Q2) is held in its place, and every later
 * one for that node waits behind it instead of overtaking it; they go out in order when the link is back. Nothing is
 * held forever: old and excess ones are dropped, and the callers whose answers they were learn it from the check.
 */
export class OrderedOutbox {
  private readonly queues = new Map<string, Queue>();
  private readonly draining = new Map<string, Promise<void>>();
  private heldCount = 0;
  private heldBytes = 0;

  constructor(private readonly publish: (nodeId: string, envelope: Envelope) => Promise<void>) {}

  /** How many envelopes wait for their link. */
  get size(): number {
    return this.heldCount;
  }

  send(nodeId: string, envelope: Envelope): void {
    let queue = this.queues.get(nodeId);
    if (!queue) {
      queue = { entries: [], held: 0 };
      this.queues.set(nodeId, queue);
    }
    const entry: Entry = { envelope, state: 'sending', done: Promise.resolve(), bytes: 0, heldAt: 0 };
    queue.entries.push(entry);
    if (queue.held > 0) {
      this.hold(queue, entry);
      void this.drain(nodeId);
    } else this.publishEntry(nodeId, queue, entry);
  }

  /** Publishes what is held, each node's in order; a node whose publish fails keeps the rest of its envelopes. */
  async flush(): Promise<void> {
    this.dropExpired();
    await Promise.all([...this.queues.keys()].map((nodeId) => this.drain(nodeId)));
  }

  /** One drain per node at a time: each publish waits for the one before it to be confirmed. */
  private drain(nodeId: string): Promise<void> {
    let running = this.draining.get(nodeId);
    if (!running) {
      running = this.drainQueue(nodeId).finally(() => this.draining.delete(nodeId));
      this.draining.set(nodeId, running);
    }
    return running;
  }

  private async drainQueue(nodeId: string): Promise<void> {
    for (;;) {
      const queue = this.queues.get(nodeId);
      const next = queue?.entries.find((entry) => entry.state !== 'sent');
      if (!queue || !next) return;
      if (next.state === 'held') {
        this.release(queue, next);
        this.publishEntry(nodeId, queue, next);
      }
      await next.done;
      if (next.state === 'held') return; // its publish failed: the link is still down
    }
  }

  private publishEntry(nodeId: string, queue: Queue, entry: Entry): void {
    entry.state = 'sending';
    entry.done = this.publish(nodeId, entry.envelope).then(
      () => {
        entry.state = 'sent';
        this.forgetSent(nodeId, queue);
      },
      () => this.hold(queue, entry),
    );
  }

  private hold(queue: Queue, entry: Entry): void {
    entry.state = 'held';
    // Its age counts from the first failure, not the latest retry.
    if (entry.heldAt === 0) {
      entry.heldAt = performance.now();
      entry.bytes = JSON.stringify(entry.envelope).length;
    }
    queue.held++;
    this.heldCount++;
    this.heldBytes += entry.bytes;
    while (this.heldBytes > MAX_BYTES && this.dropOldestHeld()) {}
  }

  private release(queue: Queue, entry: Entry): void {
    queue.held--;
    this.heldCount--;
    this.heldBytes -= entry.bytes;
  }

  /** Published entries leave once every entry before them has. */
  private forgetSent(nodeId: string, queue: Queue): void {
    while (queue.entries[0]?.state === 'sent') queue.entries.shift();
    if (queue.entries.length === 0 && this.queues.get(nodeId) === queue) this.queues.delete(nodeId);
  }

  private dropExpired(): void {
    const tooOld = performance.now() - MAX_AGE_MS;
    for (const [nodeId, queue] of this.queues) {
      for (const entry of queue.entries) if (entry.state === 'held' && entry.heldAt < tooOld) this.drop(queue, entry);
      this.forgetSent(nodeId, queue);
    }
  }

  private dropOldestHeld(): boolean {
    let oldest: { queue: Queue; entry: Entry } | undefined;
    for (const queue of this.queues.values()) {
      const entry = queue.held > 0 ? queue.entries.find((candidate) => candidate.state === 'held') : undefined;
      if (entry && (!oldest || entry.heldAt < oldest.entry.heldAt)) oldest = { queue, entry };
    }
    if (oldest) this.drop(oldest.queue, oldest.entry);
    return oldest !== undefined;
  }

  /** A dropped entry counts as sent: the ones behind it go on, in order. */
  private drop(queue: Queue, entry: Entry): void {
    this.release(queue, entry);
    entry.state = 'sent';
  }
}
