import { withTimeout as bounded, ErrorCode, ProtocolError } from '@tabmcp/protocol';

/** Every wait on another process is bounded: the promise or a -32000 error after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return bounded(promise, {
    timeoutMs: ms,
    onTimeout: () => {
      throw new ProtocolError(ErrorCode.ServerError, `${what} timed out after ${ms} ms`);
    },
    unref: true,
  });
}
