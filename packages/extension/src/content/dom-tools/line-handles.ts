import { HANDLE_PATTERN } from './handles';

/** A token's handle as the page read writes it, closing bracket included: `[button "Add" k12]`. */
const HANDLE = new RegExp(` ${HANDLE_PATTERN}\\]`, 'g');

/** The handles a line of the page read holds, joined: lines with the same elements have the same. */
export function handlesOf(line: string): string {
  return (line.match(HANDLE) ?? []).join('');
}

/** A line without its handles: a re-rendered element gets a new one, and a gone element's acts on nothing. */
export function withoutHandles(line: string): string {
  return line.replace(HANDLE, ']');
}
