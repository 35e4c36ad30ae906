import { type JSONRPCMessage, parseJSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { MAX_MESSAGE_BYTES } from '@tabmcp/protocol';

/** JSON-RPC 2.0: the request is not a valid Request object. */
const INVALID_REQUEST = -32600;
/** JSON-RPC 2.0: the line is not JSON at all. */
const PARSE_ERROR = -32700;

/**
 * MCP over stdio, one JSON-RPC message a line. Unlike the SDK's StdioServerTransport, a line that
 * carries an id but fails the JSON-RPC schema (params 5, id 4.5) is answered with Invalid Request
 * instead of being dropped, so the client does not wait for its own timeout; and a line longer than
 * the link's cap is skipped instead of closing the whole transport.
 *
 * Hardened as the SDK hardens its own: `close` is idempotent, an EPIPE (the client went away) is
 * reported and closes the transport instead of crashing the process, `send` after close rejects,
 * and a stdout that fails or closes while a write waits for `drain` rejects that `send`.
 *
 * Delete this file (and pass no `transport` to `serveStdio`) once the SDK's StdioServerTransport
 * answers a malformed request that carries an id (modelcontextprotocol/typescript-sdk#2247); the
 * fuzz-stdio and stdio-transport tests say whether it does.
 */
export class LineStdioServerTransport implements Transport {
  readonly #stdin: NodeJS.ReadableStream;
  readonly #stdout: NodeJS.WritableStream;
  readonly #maxLineBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #skipping = false;
  #closed = false;
  /** Sees every inbound message before the SDK does (tool-subscriptions.ts watches listen streams). */
  oninbound?: (message: JSONRPCMessage) => void;
  /** Called once after close, whoever owns `onclose` (serveStdio does): the process ends with it. */
  onended?: () => void;
  /** Rewrites each outbound message before it is written (page-errors.ts: the era's not-found code). */
  outbound?: (message: JSONRPCMessage) => JSONRPCMessage;
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
    this.#stdout.on('error', this.#onStdoutError);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off('data', this.#ondata);
    this.#stdin.off('error', this.#onStreamError);
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#pending = [];
    this.#pendingBytes = 0;
    // Waiting sends learn of the close through their own 'close' listener (see send).
    this.#stdout.emit('tabmcp-transport-closed');
    this.onclose?.();
    this.onended?.();
  }

  send(original: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('The stdio transport is closed'));
    const message = this.outbound ? this.outbound(original) : original;
    return new Promise((resolve, reject) => {
      const stdout = this.#stdout;
      const settle = (error?: Error) => {
        stdout.off('drain', onDrain);
        stdout.off('error', onError);
        stdout.off('close', onClose);
        stdout.off('tabmcp-transport-closed', onClose);
        if (error) reject(error);
        else resolve();
      };
      const onDrain = () => settle();
      const onError = (error: Error) => settle(error);
      const onClose = () => settle(new Error('stdout closed before the message was written'));
      let flushed: boolean;
      try {
        flushed = stdout.write(`${JSON.stringify(message)}\n`);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (flushed) {
        resolve();
        return;
      }
      stdout.once('drain', onDrain);
      stdout.once('error', onError);
      stdout.once('close', onClose);
      stdout.once('tabmcp-transport-closed', onClose);
    });
  }

  /** EPIPE and friends: the client is gone, so nothing more can be said; close instead of crashing. */
  readonly #onStdoutError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

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
      this.onerror?.(new Error(`Unparseable MCP line skipped (${errorText(error)}): ${line.slice(0, 120)}`));
      this.#reply({
        jsonrpc: '2.0',
        id: null,
        error: { code: PARSE_ERROR, message: 'Parse error: the line is not JSON' },
      });
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch (error) {
      const detail = errorText(error);
      this.onerror?.(new Error(`Invalid JSON-RPC message: ${detail.slice(0, 300)}`));
      const reply = invalidRequestReply(value, detail);
      if (reply) this.#reply(reply);
      return;
    }
    this.oninbound?.(message);
    this.onmessage?.(message);
  }

  #reply(message: unknown): void {
    // JSON-RPC answers an unreadable id with null, which the SDK's message type does not model.
    this.send(message as JSONRPCMessage).catch((error: unknown) => this.onerror?.(new Error(errorText(error))));
  }
}

/** A request (it has a method and an id) gets an error reply; a bad response or notification gets none. */
function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function invalidRequestReply(value: unknown, detail: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (!('method' in value) || !('id' in value)) return undefined;
  const id = (value as { id: unknown }).id;
  const usableId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
  return {
    jsonrpc: '2.0',
    id: usableId,
    error: {
      code: INVALID_REQUEST,
      message: `Invalid Request: a JSON-RPC 2.0 request needs a string or integer id, a method string and object params (${detail.slice(0, 200)})`,
    },
  };
}
