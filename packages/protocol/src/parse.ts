import { type $ZodError, type $ZodType, config, globalConfig, type output, safeParse } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';
import { ErrorCode, ProtocolError } from './errors';
import { MAX_MESSAGE_BYTES } from './limits';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: ProtocolError };

/** Turns zod issues into one line an agent or a developer can act on. */
export function describeIssues(error: $ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(message)'}: ${issue.message}`)
    .join('; ');
}

/**
 * Validates an already-decoded value against a link's schema, zod classic or zod/mini (tool.ts).
 * zod classic sets its English messages when its first schema is built; mini sets none, so a bundle
 * with mini alone (the content script) would say only "Invalid input": set them here.
 */
export function validate<S extends $ZodType>(schema: S, value: unknown, what: string): Parsed<output<S>> {
  if (!globalConfig.localeError) config(en());
  const result = safeParse(schema, value);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    error: new ProtocolError(ErrorCode.InvalidRequest, `Invalid ${what}: ${describeIssues(result.error)}`),
  };
}

/** The one entry point for text arriving on a link: size cap, JSON decode, schema check. */
export function parseMessage<S extends $ZodType>(
  schema: S,
  raw: string,
  what: string,
  maxBytes: number = MAX_MESSAGE_BYTES,
): Parsed<output<S>> {
  // String length counts UTF-16 units; a unit is at most 3 UTF-8 bytes, so check cheaply first.
  if (raw.length > maxBytes || (raw.length * 3 > maxBytes && utf8Length(raw) > maxBytes)) {
    return {
      ok: false,
      error: new ProtocolError(ErrorCode.MessageTooLarge, `${what} is larger than the ${maxBytes}-byte limit`),
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, error: new ProtocolError(ErrorCode.ParseError, `${what} is not valid JSON`) };
  }
  return validate(schema, value, what);
}

/** UTF-8 byte size of a value once serialised, for caps on structured-clone links (postMessage, ports). */
export function serializedSize(value: unknown): number {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : utf8Length(text);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** UTF-8 bytes of a string, as a socket carries it (the cap of every link is in these, not UTF-16 units). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
