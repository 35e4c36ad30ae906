import { DOCUMENT_TAGS } from '../../document-tag';

/**
 * Short handles for the elements an agent has been shown: a letter per document (document-tag.ts)
 * and a number counting up, e.g. `k12`. An element keeps its handle while it lives (WeakMap), a
 * handle never keeps its element alive (WeakRef), and a handle is never a screen position.
 */
const HANDLE = /^([a-z])(\d{1,7})$/;
/** Dead references are swept when the map grows past this. */
const SWEEP_AT = 20_000;

export type Resolved = { element: Element } | { error: string };

export class Handles {
  /** Asked at the first handle given or read, not before: the background's letter may arrive meanwhile. */
  readonly #chooseLetter: () => string;
  #letter: string | undefined;
  #next = 1;
  readonly #byElement = new WeakMap<Element, string>();
  readonly #byHandle = new Map<string, WeakRef<Element>>();
  readonly #describe: (element: Element) => string;

  constructor(describe: (element: Element) => string, chooseLetter: () => string = randomLetter) {
    this.#chooseLetter = chooseLetter;
    this.#describe = describe;
  }

  get letter(): string {
    this.#letter ??= this.#chooseLetter();
    return this.#letter;
  }

  of(element: Element): string {
    const known = this.#byElement.get(element);
    if (known) return known;
    if (this.#byHandle.size >= SWEEP_AT) this.#sweep();
    const handle = `${this.letter}${this.#next++}`;
    this.#byElement.set(element, handle);
    this.#byHandle.set(handle, new WeakRef(element));
    return handle;
  }

  /** The live element behind a handle, or a sentence saying why there is none and what to call. */
  resolve(raw: unknown): Resolved {
    const handle = typeof raw === 'string' ? raw.trim() : '';
    const match = HANDLE.exec(handle);
    if (!match) {
      return {
        error: `"${String(raw).slice(0, 20)}" is not a handle; handles look like ${this.letter}3 and come from get_page_content.`,
      };
    }
    if (match[1] !== this.letter) {
      return {
        error: `Handle ${handle} belongs to an earlier page of this tab. Call get_page_content for the current handles.`,
      };
    }
    const element = this.#byHandle.get(handle)?.deref();
    if (!element) {
      return this.#byHandle.has(handle) || Number(match[2]) < this.#next
        ? { error: `Element ${handle} is no longer on the page. Call get_page_content for the current handles.` }
        : {
            error: `No element ${handle} on this page. Handles come from get_page_content; call it for the current ones.`,
          };
    }
    if (!element.isConnected) {
      return {
        error: `Element ${handle} (${this.#describe(element)}) is no longer on the page. Call get_page_content for the current handles.`,
      };
    }
    return { element };
  }

  #sweep(): void {
    for (const [handle, ref] of this.#byHandle) if (!ref.deref()?.isConnected) this.#byHandle.delete(handle);
  }
}

function randomLetter(): string {
  return DOCUMENT_TAGS[Math.floor(Math.random() * DOCUMENT_TAGS.length)] ?? 'a';
}
