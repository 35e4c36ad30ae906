import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MESSAGE_BYTES } from '@tabmcp/protocol';

/** Events kept per HTTP session: enough to bridge a dropped SSE stream, bounded so memory is. */
const MAX_EVENTS = 256;
/**
 * ...and their bytes (UTF-8 of the JSON): a count alone let one idle session hold 156 MiB of big
 * results (issue 26). One full-size answer fits; the newest event is always kept, whatever its size.
 */
export const MAX_EVENT_BYTES = MAX_MESSAGE_BYTES;

/**
 * What makes an HTTP session's SSE streams resumable: a client that lost its stream mid tool call
 * reconnects with Last-Event-ID and gets the events it missed (the progress, then the result).
 * One store per session; the oldest events go first when it is full.
 */
export class BoundedEventStore implements EventStore {
  readonly #events = new Map<string, { streamId: string; message: JSONRPCMessage; bytes: number }>();
  #next = 0;
  #bytes = 0;

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.#next += 1;
    const eventId = `${streamId}_${this.#next}`;
    const bytes = Buffer.byteLength(JSON.stringify(message));
    this.#events.set(eventId, { streamId, message, bytes });
    this.#bytes += bytes;
    while (this.#events.size > 1 && (this.#events.size > MAX_EVENTS || this.#bytes > MAX_EVENT_BYTES)) {
      const [oldest] = this.#events;
      if (oldest === undefined) break;
      this.#events.delete(oldest[0]);
      this.#bytes -= oldest[1].bytes;
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
