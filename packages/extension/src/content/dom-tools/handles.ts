import { DOCUMENT_TAGS } from '../../document-tag';

/**
 * Short handles for the elements an agent has been shown: a letter per document (document-tag.ts)
 * and a random number, e.g. `k3081`. An element keeps its handle while it lives (WeakMap), a
 * handle never keeps its element alive (WeakRef), and a handle is never a screen position. The
 * number is drawn at random, never counted, so page text cannot guess the handle of a real control
 * and write a fake token that points at it (docs/security.md, "Page text").
 */
const HANDLE = /^([a-z])(\d{1,9})$/;
/**
 * A handle as the page read writes it: a control inside a frame of another site is written under
 * its frame's handle (`k512.b301`: element b301 of the frame that is k512 here), at any depth.
 */
export const HANDLE_PATTERN = '(?:[a-z]\\d+\\.)*[a-z]\\d+';
/** Dead references are swept when the map has doubled since the last sweep: linear in all. */
const SWEEP_AT = 20_000;
/** Numbers are drawn among at least this many times as many as were handed out. */
const SPARSENESS = 10;
const MIN_DIGITS = 3;

export type Resolved = { element: Element } | { error: string };
/** A handle of a control inside a frame of another site: the frame's element here, and the whole handle. */
export type InFrame = { frame: Element; handle: string };

export class Handles {
  /** Asked at the first handle given or read, not before: the background's letter may arrive meanwhile. */
  readonly #chooseLetter: () => string;
  #letter: string | undefined;
  /** Every number handed out, alive or not: tells "gone" from "never was". */
  readonly #issued = new Set<number>();
  #sweepAt = SWEEP_AT;
  readonly #byElement = new WeakMap<Element, string>();
  readonly #byHandle = new Map<string, WeakRef<Element>>();
  readonly #describe: (element: Element) => string;

  /** What every handle of this document starts with: its frame's handle in the page around it, or nothing. */
  readonly #prefix: string;

  constructor(describe: (element: Element) => string, chooseLetter: () => string = randomLetter, prefix = '') {
    this.#chooseLetter = chooseLetter;
    this.#describe = describe;
    this.#prefix = prefix;
  }

  get letter(): string {
    this.#letter ??= this.#chooseLetter();
    return this.#letter;
  }

  of(element: Element): string {
    const known = this.#byElement.get(element);
    if (known) return known;
    if (this.#byHandle.size >= this.#sweepAt) {
      this.#sweep();
      this.#sweepAt = Math.max(SWEEP_AT, this.#byHandle.size * 2);
    }
    const handle = `${this.#prefix}${this.letter}${this.#draw()}`;
    this.#byElement.set(element, handle);
    this.#byHandle.set(handle, new WeakRef(element));
    return handle;
  }

  /** The live element behind a handle, or a sentence saying why there is none and what to call. */
  resolve(raw: unknown): Resolved {
    const handle = typeof raw === 'string' ? raw.trim() : '';
    const match = handle.startsWith(this.#prefix) ? HANDLE.exec(handle.slice(this.#prefix.length)) : null;
    if (!match) {
      return {
        error: `"${String(raw).slice(0, 20)}" is not a handle; handles look like ${this.#prefix}${this.letter}3081 and come from get_page_content.`,
      };
    }
    if (match[1] !== this.letter) {
      return {
        error: `Handle ${handle} belongs to an earlier page of this tab. Call get_page_content for the current handles.`,
      };
    }
    const element = this.#byHandle.get(handle)?.deref();
    if (!element) {
      return this.#byHandle.has(handle) || this.#issued.has(Number(match[2]))
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

  /**
   * The frame a handle of a control inside a frame of another site goes through (`k512.b301`: the
   * iframe k512 of this document), or undefined for a handle of this document's own.
   */
  inFrame(raw: unknown): InFrame | { error: string } | undefined {
    const handle = typeof raw === 'string' ? raw.trim() : '';
    if (!handle.startsWith(this.#prefix)) return undefined;
    const dot = handle.indexOf('.', this.#prefix.length);
    if (dot < 0) return undefined;
    const resolved = this.resolve(handle.slice(0, dot));
    if ('error' in resolved) return resolved;
    const tag = resolved.element.localName;
    if (tag !== 'iframe' && tag !== 'frame')
      return { error: `${handle.slice(0, dot)} is no frame; ${handle} names nothing.` };
    return { frame: resolved.element, handle };
  }

  /** A number not handed out yet, with enough digits that guessing one is a long shot (1 in 9,000 or fewer). */
  #draw(): number {
    const digits = Math.max(MIN_DIGITS, String(this.#issued.size * SPARSENESS).length + 1);
    const low = 10 ** (digits - 1);
    for (;;) {
      const number = low + (this.#random() % (9 * low));
      if (!this.#issued.has(number)) {
        this.#issued.add(number);
        return number;
      }
    }
  }

  /** Random numbers drawn a batch at a time: one call to the system's generator per 256 handles. */
  readonly #batch = new Uint32Array(256);
  #used = this.#batch.length;
  #random(): number {
    if (this.#used === this.#batch.length) {
      crypto.getRandomValues(this.#batch);
      this.#used = 0;
    }
    return this.#batch[this.#used++] ?? 0;
  }

  #sweep(): void {
    for (const [handle, ref] of this.#byHandle) if (!ref.deref()?.isConnected) this.#byHandle.delete(handle);
  }
}

function randomLetter(): string {
  return DOCUMENT_TAGS[Math.floor(Math.random() * DOCUMENT_TAGS.length)] ?? 'a';
}
