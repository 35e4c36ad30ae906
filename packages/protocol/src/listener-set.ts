type Listener = (...args: never[]) => void;

/**
 * Event sources with several consumers (the session and the `all` view both hear the link): each
 * `on` adds a listener and returns its unsubscribe. One listener that throws does not keep the
 * others from hearing the event; the first error is rethrown after all of them ran.
 */
export class ListenerSet<Events extends { [K in keyof Events]: Listener }> {
  readonly #listeners = new Map<keyof Events, Set<Listener>>();

  on<K extends keyof Events>(type: K, listener: Events[K]): () => void {
    let set = this.#listeners.get(type);
    if (!set) {
      set = new Set();
      this.#listeners.set(type, set);
    }
    // A wrapper, so the same function added twice is two subscriptions, each with its own unsubscribe.
    const entry: Listener = (...args) => listener(...args);
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  emit<K extends keyof Events>(type: K, ...args: Parameters<Events[K]>): void {
    const set = this.#listeners.get(type);
    if (!set) return;
    let failure: { error: unknown } | undefined;
    for (const listener of [...set]) {
      try {
        (listener as (...args: Parameters<Events[K]>) => void)(...args);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}
