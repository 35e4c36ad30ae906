// The globals that both Node and a browser worker provide, and nothing that does I/O. The portable
// packages (protocol, hub) are type-checked against this file instead of DOM or @types/node, so a
// `chrome.*`, `process`, `document`, `fetch` or `WebSocket` in them fails the typecheck.
// Declarations are the subset those packages use; widen them when a portable package needs more.

type TimerHandle = { readonly __timerHandle?: never } | number;
declare function setTimeout(callback: () => void, ms?: number): TimerHandle;
declare function clearTimeout(handle: TimerHandle | undefined): void;
declare function setInterval(callback: () => void, ms?: number): TimerHandle;
declare function clearInterval(handle: TimerHandle | undefined): void;
declare function queueMicrotask(callback: () => void): void;
declare function structuredClone<T>(value: T): T;

// Waits a caller can cancel (PendingRequests, waitUntil): only what a listener of the signal uses.
declare class AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

declare class URL {
  constructor(url: string, base?: string | URL);
  readonly href: string;
  readonly origin: string;
  readonly protocol: string;
  readonly host: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
  toString(): string;
}

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array): string;
}

declare const console: {
  debug(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  log(...data: unknown[]): void;
};

// WebCrypto: the link's challenge-response proof (protocol/link-auth.ts) is computed alike in Node and the
// extension's worker. Only the HMAC subset is declared.
type HmacKeyHandle = { readonly __hmacKey?: never };
declare const crypto: {
  getRandomValues<T extends Uint8Array>(array: T): T;
  randomUUID(): string;
  subtle: {
    importKey(
      format: 'raw',
      keyData: Uint8Array,
      algorithm: { name: 'HMAC'; hash: 'SHA-256' },
      extractable: boolean,
      usages: 'sign'[],
    ): Promise<HmacKeyHandle>;
    sign(algorithm: 'HMAC', key: HmacKeyHandle, data: Uint8Array): Promise<ArrayBuffer>;
  };
};
