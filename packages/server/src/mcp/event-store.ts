import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Events kept per HTTP session: enough to bridge a dropped SSE stream, bounded so memory is. */
const MAX_EVENTS = 256;

/**
 * What makes an HTTP session's SSE streams resumable: a client that lost its stream mid tool call
 * reconnects with Last-Event-ID and gets the events it missed (the progress, then the result).
 * One store per session; the oldest events go first when it is full.
 */
export class BoundedEventStore implements EventStore {
  readonly #events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
  #next = 0;

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.#next += 1;
    const eventId = `${streamId}_${this.#next}`;
    this.#events.set(eventId, { streamId, message });
    if (this.#events.size > MAX_EVENTS) {
      const [oldest] = this.#events.keys();
      if (oldest !== undefined) this.#events.delete(oldest);
    }
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.#events.get(lastEventId);
    if (!last) return '';
    let after = false;
    for (const [eventId, event] of this.#events) {
      if (eventId === lastEventId) {
        after = true;
        continue;
      }
      if (after && event.streamId === last.streamId) await send(eventId, event.message);
    }
    return last.streamId;
  }
}
