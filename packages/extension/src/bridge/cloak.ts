/**
 * Hooks the bridge puts on the page's own functions while it needs them (docs/security.md, "What runs
 * in a page"), made so the page cannot tell them from the browser's functions by their text: each
 * wrapper has the original's name and length and no `prototype`, and while any hook is on,
 * `Function.prototype.toString` prints the original's native text for it (and its own). Nothing is
 * left on `window`: taking the last hook off puts every original back, `toString` included. A hook
 * whose property the page replaced meanwhile is left as the page set it.
 */
type AnyFunction = (...args: never[]) => unknown;

const nativeToString = Function.prototype.toString;
/** Each wrapper (and the stand-in for `toString`) and the native function whose text it prints. */
const originals = new WeakMap<object, AnyFunction>();
const toStringStandIn = {
  toString(this: unknown): string {
    const shown = typeof this === 'function' ? (originals.get(this) ?? this) : this;
    return Reflect.apply(nativeToString, shown, []) as string;
  },
}.toString;
originals.set(toStringStandIn, nativeToString);

interface Hook {
  owner: object;
  key: PropertyKey;
  descriptor: PropertyDescriptor;
  wrapper: AnyFunction;
}

let hooks: Hook[] = [];
let toStringHook: Hook | undefined;

/** Gives `wrapper` the name and length of `original`, so the page reads it as the original. */
function disguised<T extends AnyFunction>(original: AnyFunction, wrapper: T): T {
  Object.defineProperty(wrapper, 'name', { value: original.name, configurable: true });
  Object.defineProperty(wrapper, 'length', { value: original.length, configurable: true });
  originals.set(wrapper, original);
  return wrapper;
}

function swap(owner: object, key: PropertyKey, wrapper: AnyFunction): Hook | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(owner, key);
  if (!descriptor || typeof descriptor.value !== 'function' || !descriptor.configurable) return undefined;
  Object.defineProperty(owner, key, { ...descriptor, value: wrapper });
  return { owner, key, descriptor, wrapper };
}

function unswap(hook: Hook): void {
  const now = Object.getOwnPropertyDescriptor(hook.owner, hook.key);
  if (now?.value === hook.wrapper) Object.defineProperty(hook.owner, hook.key, hook.descriptor);
}

/**
 * Replaces the function at `owner[key]` by `wrap(original)`, disguised; returns how to put the
 * original back. Does nothing (and returns a no-op) when the property is not a configurable function.
 * `wrap` must return a method or an arrow function: those have no `prototype`, as native functions.
 */
export function hook(owner: object, key: PropertyKey, wrap: (original: AnyFunction) => AnyFunction): () => void {
  const original = (Object.getOwnPropertyDescriptor(owner, key)?.value ?? undefined) as AnyFunction | undefined;
  if (typeof original !== 'function') return () => {};
  const placed = swap(owner, key, disguised(original, wrap(original)));
  if (!placed) return () => {};
  hooks.push(placed);
  toStringHook ??= swap(Function.prototype, 'toString', toStringStandIn);
  return () => {
    unswap(placed);
    hooks = hooks.filter((other) => other !== placed);
    if (hooks.length > 0 || !toStringHook) return;
    unswap(toStringHook);
    toStringHook = undefined;
  };
}
