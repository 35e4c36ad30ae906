import { ErrorCode, ProtocolError } from './errors';

/** How a wait ends when nothing happened: every wait on another party is bounded, and may be cancelled. */
export interface WaitOptions<T> {
  timeoutMs: number;
  /** What the wait gives when time is up: a value (`false`, nothing), or it throws the error that says what did not happen. */
  onTimeout: () => T;
  /** Aborting it ends the wait at once, rejecting with the signal's reason. */
  signal?: AbortSignal;
  /** In Node: the timer alone does not keep the process alive. */
  unref?: boolean;
}

/** Starts listening; calls `done` or `fail` once the awaited thing happened; returns how to stop listening. */
type Listen<T> = (done: (value: T) => void, fail: (error: unknown) => void) => (() => void) | undefined;

/**
 * The one bounded wait of tabmcp (zod-free, for page code too): settles at the first of `done`,
 * `fail`, the timeout or the signal's abort, and always stops listening and clears its timer.
 */
export function waitUntil<T>(listen: Listen<T>, options: WaitOptions<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    let settled = false;
    let stop: (() => void) | undefined;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      stop?.();
      settle();
    };
    const onAbort = () => finish(() => reject(abortError(signal)));
    const timer = setTimeout(
      () =>
        finish(() => {
          try {
            resolve(options.onTimeout());
          } catch (error) {
            reject(error);
          }
        }),
      options.timeoutMs,
    );
    if (options.unref) (timer as { unref?: () => void }).unref?.();
    signal?.addEventListener('abort', onAbort, { once: true });
    stop = listen(
      (value) => finish(() => resolve(value)),
      (error) => finish(() => reject(error)),
    );
    // `listen` may have called back before it returned its stop.
    if (settled) stop?.();
  });
}

/** Settles as `promise` does, or as `options.onTimeout` says after `options.timeoutMs`, or on abort. */
export function withTimeout<T>(promise: Promise<T>, options: WaitOptions<T>): Promise<T> {
  return waitUntil((done, fail) => {
    promise.then(done, fail);
    return undefined;
  }, options);
}

/** The reason an aborted signal carries, as an Error. */
export function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new ProtocolError(
    ErrorCode.InternalError,
    `The wait was aborted${reason === undefined ? '' : `: ${String(reason)}`}`,
  );
}
