import { ErrorCode, ProtocolError } from '@tabmcp/protocol';

/** Every wait on another process is bounded: the promise or a -32000 error after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ProtocolError(ErrorCode.ServerError, `${what} timed out after ${ms} ms`)),
      ms,
    );
    timer.unref?.();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
