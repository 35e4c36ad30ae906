/**
 * Which document of a tab a tool list came from, so a call made from that list never runs on the
 * next page's tool of the same name (docs/dom-tools.md, "Which page a call is for"). The tab's
 * content script writes its document's id into every tool it publishes and every answer it gives
 * (`_meta[DOCUMENT_KEY]`); the server remembers the id of what the agent last saw and passes it
 * back with the call as the reserved argument DOCUMENT_KEY, which the content script checks and
 * takes off before any tool sees the arguments. Neither copy reaches the agent.
 */
export const DOCUMENT_KEY = 'tabmcp/document';

/** A document id as written: short, so it costs little in every tool of a tab's list. */
const DOCUMENT_ID = /^[a-z0-9]{6,32}$/;

interface WithMeta {
  _meta?: Record<string, unknown> | undefined;
}

/** The document a tool or an answer came from, when a tab's content script wrote one. */
export function documentOf(value: unknown): string | undefined {
  const meta = (value as WithMeta | null | undefined)?._meta;
  const id = typeof meta === 'object' && meta !== null ? meta[DOCUMENT_KEY] : undefined;
  return typeof id === 'string' && DOCUMENT_ID.test(id) ? id : undefined;
}

/** `value` with `_meta[DOCUMENT_KEY]` set to `id`, its other `_meta` kept. */
export function withDocument<T extends object>(value: T, id: string): T {
  const meta = (value as WithMeta)._meta;
  return { ...value, _meta: { ...(typeof meta === 'object' && meta !== null ? meta : {}), [DOCUMENT_KEY]: id } };
}

/** `value` without `_meta[DOCUMENT_KEY]` (and without `_meta` when nothing else was in it). */
export function withoutDocument<T extends object>(value: T): T {
  const meta = (value as WithMeta)._meta;
  if (typeof meta !== 'object' || meta === null || !(DOCUMENT_KEY in meta)) return value;
  const { [DOCUMENT_KEY]: _dropped, ...rest } = meta;
  const { _meta: _old, ...bare } = value as T & WithMeta;
  return (Object.keys(rest).length > 0 ? { ...bare, _meta: rest } : bare) as T;
}

/** Splits a call's arguments into the document it was made for (if any) and the tool's own arguments. */
export function takeDocumentArgument(args: Record<string, unknown>): {
  document: string | undefined;
  args: Record<string, unknown>;
} {
  if (!(DOCUMENT_KEY in args)) return { document: undefined, args };
  const { [DOCUMENT_KEY]: id, ...rest } = args;
  return { document: typeof id === 'string' ? id : '', args: rest };
}

/** A new document id: random, so no page can name another page's document. */
export function newDocumentId(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return [...bytes].map((byte) => (byte % 36).toString(36)).join('') + Date.now().toString(36).slice(-4);
}
