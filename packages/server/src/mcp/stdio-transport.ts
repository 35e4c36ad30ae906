import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MESSAGE_BYTES } from '@tabmcp/protocol';

/** JSON-RPC 2.0: the request is not a valid Request object. */
const INVALID_REQUEST = -32600;

/**
 * MCP over stdio, one JSON-RPC message a line. Unlike the SDK's StdioServerTransport, a line that
 * carries an id but fails the JSON-RPC schema (params 5, id 4.5) is answered with Invalid Request
 * instead of being dropped, so the client does not wait for its own timeout; and a line longer than
 * the link's cap is skipped instead of closing the whole transport.
 */
export class LineStdioServerTransport implements Transport {
  readonly #stdin: NodeJS.ReadableStream;
  readonly #stdout: NodeJS.WritableStream;
  readonly #maxLineBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #skipping = false;
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];

  constructor(stdin: NodeJS.ReadableStream = process.stdin, stdout: NodeJS.WritableStream = process.stdout) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#maxLineBytes = MAX_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    this.#stdin.on('data', this.#ondata);
    this.#stdin.on('error', this.#onStreamError);
  }

  async close(): Promise<void> {
    this.#stdin.off('data', this.#ondata);
    this.#stdin.off('error', this.#onStreamError);
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#pending = [];
    this.#pendingBytes = 0;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#stdout.once('drain', resolve);
    });
  }

  readonly #onStreamError = (error: Error) => this.onerror?.(error);

  readonly #ondata = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let newline = data.indexOf(10); newline !== -1; newline = data.indexOf(10)) {
      const tail = data.subarray(0, newline);
      data = data.subarray(newline + 1);
      if (this.#skipping) {
        this.#skipping = false;
        this.#pending = [];
        this.#pendingBytes = 0;
        continue;
      }
      const line = this.#pending.length === 0 ? tail : Buffer.concat([...this.#pending, tail]);
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#onLine(line.toString('utf8'));
    }
    if (data.length === 0 || this.#skipping) return;
    this.#pendingBytes += data.length;
    if (this.#pendingBytes > this.#maxLineBytes) {
      this.#skipping = true;
      this.#pending = [];
      this.#pendingBytes = 0;
      this.onerror?.(new Error(`An MCP message longer than ${this.#maxLineBytes} bytes was skipped`));
      return;
    }
    this.#pending.push(data);
  };

  #onLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    this.onerror?.(new Error(`Invalid JSON-RPC message: ${parsed.error.message}`));
    const reply = invalidRequestReply(value, parsed.error.issues.map((issue) => issue.message).join('; '));
    if (reply) void this.send(reply);
  }
}

/** A request (it has a method and an id) gets an error reply; a bad response or notification gets none. */
function invalidRequestReply(value: unknown, detail: string): JSONRPCMessage | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (!('method' in value) || !('id' in value)) return undefined;
  const id = (value as { id: unknown }).id;
  const usableId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
  // JSON-RPC answers an unreadable id with null, which the SDK's message type does not model.
  return {
    jsonrpc: '2.0',
    id: usableId,
    error: {
      code: INVALID_REQUEST,
      message: `Invalid Request: a JSON-RPC 2.0 request needs a string or integer id, a method string and object params (${detail.slice(0, 200)})`,
    },
  } as unknown as JSONRPCMessage;
}
