/**
 * Two or more "windows" in one process for unit tests of the postMessage logic: each realm sees
 * the others through stable view objects, so `event.source` identity and `targetOrigin` filtering
 * behave as in a browser (a message to the wrong origin is dropped silently).
 */
export interface FakeWindow extends EventTarget {
  location: { origin: string };
  parent: FakeWindow;
  postMessage(data: unknown, targetOrigin: string): void;
}

class Realm extends EventTarget {
  readonly location: { origin: string };
  readonly #views = new Map<Realm, FakeWindow>();
  constructor(origin: string) {
    super();
    this.location = { origin };
  }

  /** How `other` looks from code running in this realm. */
  view(other: Realm): FakeWindow {
    if (other === this) return this.self;
    let view = this.#views.get(other);
    if (!view) {
      const from = this;
      const target = new EventTarget() as FakeWindow;
      Object.assign(target, {
        location: other.location,
        postMessage(data: unknown, targetOrigin: string) {
          other.deliver(data, targetOrigin, from);
        },
      });
      view = target;
      this.#views.set(other, view);
    }
    return view;
  }

  get self(): FakeWindow {
    return this as unknown as FakeWindow;
  }

  postMessage(data: unknown, targetOrigin: string): void {
    this.deliver(data, targetOrigin, this);
  }

  deliver(data: unknown, targetOrigin: string, from: Realm): void {
    if (targetOrigin !== '*' && targetOrigin !== this.location.origin) return;
    const copy = structuredClone(data);
    setTimeout(() => {
      const event = new Event('message');
      Object.defineProperties(event, {
        data: { value: copy },
        origin: { value: from.location.origin },
        source: { value: from === this ? this : this.view(from) },
      });
      this.dispatchEvent(event);
    }, 0);
  }
}

export function createRealms(...origins: string[]): Realm[] {
  return origins.map((origin) => new Realm(origin));
}

export type { Realm };

/** A parent realm with a child realm as its iframe: `child.self.parent` is the parent's view. */
export function nest(parent: Realm, child: Realm): void {
  Object.defineProperty(child, 'parent', { value: child.view(parent), configurable: true });
  Object.defineProperty(parent, 'parent', { value: parent, configurable: true });
}
