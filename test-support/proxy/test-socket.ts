import { type ClientOptions, type RawData, WebSocket } from 'ws';

export type Json = Record<string, unknown>;

export interface Closed {
  code: number;
  reason: string;
}

/** A WebSocket client for tests: queue of decoded frames, awaitable with timeouts, close tracking. */
export class TestSocket {
  private readonly frames: Json[] = [];
  private readonly waiters: { resolve: (frame: Json) => void; reject: (error: Error) => void }[] = [];
  readonly closed: Promise<Closed>;
  readonly raw: string[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: RawData) => {
      const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
      this.raw.push(text);
      const frame = JSON.parse(text) as Json;
      const waiter = this.waiters.shift();
      if (waiter) waiter.resolve(frame);
      else this.frames.push(frame);
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString('utf8') });
        for (const waiter of this.waiters.splice(0)) waiter.reject(new Error(`socket closed (${code} ${reason})`));
      });
    });
    ws.on('error', () => undefined);
  }

  static open(url: string, headers?: Record<string, string>, options: ClientOptions = {}): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { ...options, headers });
      const socket = new TestSocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The next frame, in order of arrival. */
  next(timeoutMs = 3_000): Promise<Json> {
    const queued = this.frames.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (frame: Json) => {
          clearTimeout(timer);
          resolve(frame);
        },
        reject: (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no frame within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Skips frames until one matches (skipped frames are dropped). */
  async nextMatching(predicate: (frame: Json) => boolean, timeoutMs = 3_000): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const frame = await this.next(Math.max(1, deadline - Date.now()));
      if (predicate(frame)) return frame;
    }
  }

  /** Resolves with whatever arrived within `ms`, for asserting that nothing (unexpected) did. */
  async drain(ms: number): Promise<Json[]> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.frames.splice(0);
  }

  /** Request/response helper for the MCP side. */
  async request(id: string | number, method: string, params?: unknown, extra?: Json): Promise<Json> {
    this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }), ...extra });
    return this.nextMatching((frame) => frame.id === id && !('method' in frame));
  }

  close(): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close();
  }

  terminate(): void {
    this.ws.terminate();
  }
}
