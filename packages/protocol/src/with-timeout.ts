/**
 * Settles as `promise` does, or rejects with `onTimeout()` after `ms`: every wait on another party
 * is bounded. Zod-free, for page code too. `unref` keeps the timer from holding a Node process open.
 */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => Error,
  options: { unref?: boolean } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    if (options.unref) (timer as { unref?: () => void }).unref?.();
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
