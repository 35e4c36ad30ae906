import type { Envelope } from '../wire/envelopes';

/** Replies held at most this long: by then the caller's check has told it the path failed (reply-path.ts). */
const MAX_AGE_MS = 30_000;
/** And at most this much of them; past it the oldest go, and their callers are told by the same check. */
const MAX_BYTES = 16 * 1024 * 1024;

interface Held {
  nodeId: string;
  envelope: Envelope;
  bytes: number;
  at: number;
}

/**
 * A browser's answers that could not be published to the caller's node (a short Redis drop on this side, issue 39
 * Q2): held here and published again when the link is back, so the answer the browser gave still reaches the
 * caller. Nothing is held forever: old and excess ones are dropped, and their callers learn it from the check.
 */
export class UndeliveredReplies {
  private readonly held: Held[] = [];
  private bytes = 0;
  private flushing: Promise<void> | undefined;

  constructor(private readonly publish: (nodeId: string, envelope: Envelope) => Promise<void>) {}

  get size(): number {
    return this.held.length;
  }

  hold(nodeId: string, envelope: Envelope): void {
    const bytes = JSON.stringify(envelope).length;
    this.held.push({ nodeId, envelope, bytes, at: performance.now() });
    this.bytes += bytes;
    while (this.bytes > MAX_BYTES && this.held.length > 0) this.drop();
  }

  /**
   * Publishes what is held, oldest first; a node whose publish fails keeps the rest of its replies (its link, or
   * ours, is still down) while the others' go on. One flush at a time.
   */
  flush(): Promise<void> {
    this.flushing ??= this.publishHeld().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async publishHeld(): Promise<void> {
    const tooOld = performance.now() - MAX_AGE_MS;
    while (this.held.length > 0 && (this.held[0]?.at ?? 0) < tooOld) this.drop();
    const unreachable = new Set<string>();
    for (const entry of [...this.held]) {
      if (unreachable.has(entry.nodeId)) continue;
      try {
        await this.publish(entry.nodeId, entry.envelope);
      } catch {
        unreachable.add(entry.nodeId);
        continue;
      }
      const index = this.held.indexOf(entry);
      if (index !== -1) {
        this.held.splice(index, 1);
        this.bytes -= entry.bytes;
      }
    }
  }

  private drop(): void {
    const dropped = this.held.shift();
    if (dropped) this.bytes -= dropped.bytes;
  }
}
