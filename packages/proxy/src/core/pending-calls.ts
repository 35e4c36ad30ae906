import type { JsonRpcId } from '@tabmcp/protocol';

/** One MCP client's forwarded calls still waiting for the extension, keyed by mapped id. */
export class PendingCalls {
  // Map keeps insertion order, so the oldest calls come first when expiring.
  private readonly calls = new Map<string, { id: JsonRpcId; deadline: number }>();

  get size(): number {
    return this.calls.size;
  }

  has(mappedId: string): boolean {
    return this.calls.has(mappedId);
  }

  add(mappedId: string, id: JsonRpcId, deadline: number): void {
    this.calls.set(mappedId, { id, deadline });
  }

  /** The client's original id (type preserved), removing the entry; undefined when unknown or late. */
  take(mappedId: string): JsonRpcId | undefined {
    const call = this.calls.get(mappedId);
    if (call === undefined) return undefined;
    this.calls.delete(mappedId);
    return call.id;
  }

  takeAll(): JsonRpcId[] {
    const ids = [...this.calls.values()].map((call) => call.id);
    this.calls.clear();
    return ids;
  }

  /** Deadlines grow with insertion order (one timeout for all), so the scan stops at the first live call. */
  takeExpired(now: number): JsonRpcId[] {
    const expired: JsonRpcId[] = [];
    for (const [mappedId, call] of this.calls) {
      if (call.deadline > now) break;
      expired.push(call.id);
      this.calls.delete(mappedId);
    }
    return expired;
  }
}
