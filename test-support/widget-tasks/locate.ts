import type { Target } from './task';

/**
 * One element or text of a page as a tool wrote it (a Playwright MCP snapshot line, a
 * chrome-devtools-mcp snapshot line, a token or text of tabmcp's page read), in reading order.
 * Each runner parses its own tool's text into these; `locate` then finds a target the same way for
 * all three, as a model reading any of them would.
 */
export interface ReadNode {
  /** As the tool writes it (`button`, `listitem`, `clickable` …); '' for plain text. */
  role: string;
  name: string;
  /** What the tool acts on (a ref, a uid, a handle); absent where the tool gives none. */
  ref?: string;
  /** Nesting, from the tool's indentation: a node's children follow it, one deeper. */
  depth: number;
  /** The hint an empty text box shows (its placeholder), where the tool writes it: a person finds the box by it too. */
  placeholder?: string;
  /** For a native `<select>` (a combobox whose options the tool lists under it): its options' names. */
  options?: string[];
}

/** Notes under each combobox the options a tool lists inside it (a native select's), as `options`. */
export function withOptions(nodes: ReadNode[]): ReadNode[] {
  nodes.forEach((node, index) => {
    if (node.role !== 'combobox' && node.role !== 'listbox') return;
    const names = subtree(nodes, index)
      .map((at) => nodes[at])
      .filter((child) => child?.role === 'option')
      .map((child) => child?.name ?? '');
    if (names.length > 0) node.options = names;
  });
  return nodes;
}

/** Roles that only hold text or group others: a name found on one is a label, not a control. */
const PLAIN = new Set(['', 'text', 'generic', 'StaticText', 'paragraph', 'none', 'LabelText']);

/** Blocks whose text is their name to a person (a card, a row): a text hit inside one stands for it. */
const HOLDERS = new Set(['listitem', 'row', 'treeitem', 'option', 'cell', 'gridcell', 'article']);

/** Controls a label may sit beside without naming them (`Window seat [switch]`, `[clickable] Train`). */
const CONTROLS = new Set([
  'button',
  'checkbox',
  'switch',
  'combobox',
  'textbox',
  'searchbox',
  'radio',
  'slider',
  'spinbutton',
  'tab',
  'link',
  'menuitem',
  'clickable',
]);

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Names compared as a person reads them: a tool that writes what CSS `text-transform` shows (BILLING) names the
 * same tab, and a text box is found by its name or by the hint it shows while empty (a todo list's add box named
 * "New todo" that reads "What needs to be done?").
 */
function named(node: ReadNode, target: Target): boolean {
  if (target.name === undefined) return true;
  const wanted = target.name.toLowerCase();
  return [node.name, node.placeholder ?? ''].some((shown) => {
    const name = squash(shown).toLowerCase();
    return target.starts ? name.startsWith(wanted) : name === wanted;
  });
}

/** The parent of `index`: the nearest node before it one level less deep. */
function parentOf(nodes: ReadNode[], index: number): number | undefined {
  const depth = nodes[index]?.depth ?? 0;
  for (let at = index - 1; at >= 0; at--) if ((nodes[at]?.depth ?? 0) < depth) return at;
  return undefined;
}

/** The indexes of the subtree under `index` (itself included). */
function subtree(nodes: ReadNode[], index: number): number[] {
  const depth = nodes[index]?.depth ?? 0;
  const inside = [index];
  for (let at = index + 1; at < nodes.length && (nodes[at]?.depth ?? 0) > depth; at++) inside.push(at);
  return inside;
}

/**
 * The nearest ancestor of `index` that is a plain box with a ref and no name of its own (not a native select
 * around its options); undefined when a named or non-plain one comes first.
 */
function wrapperWithRef(nodes: ReadNode[], index: number): number | undefined {
  for (let at = parentOf(nodes, index); at !== undefined; at = parentOf(nodes, at)) {
    const node = nodes[at];
    if (!node || squash(node.name) !== '' || !PLAIN.has(node.role)) return undefined;
    if (node.ref) return at;
  }
  return undefined;
}

/** A text hit stands for the unnamed element that holds it (a list item or card whose text it is). */
function holder(nodes: ReadNode[], index: number): number {
  const node = nodes[index];
  if (!node || !PLAIN.has(node.role)) return index;
  const parent = parentOf(nodes, index);
  const up = parent === undefined ? undefined : nodes[parent];
  if (parent !== undefined && up?.ref && squash(up.name) === '' && HOLDERS.has(up.role)) return parent;
  return index;
}

/** The element `target` names among `within` (indexes), closest to `near`; by role, else by name, else by label. */
function pick(nodes: ReadNode[], within: number[], target: Target, near: number): number | undefined {
  const closest = (found: number[]) => found.sort((a, b) => Math.abs(a - near) - Math.abs(b - near) || a - b).at(0);
  const withRole = within.filter((at) => {
    const node = nodes[at];
    return node?.ref !== undefined && node.role === target.role && named(node, target);
  });
  if (target.role !== undefined && withRole.length > 0) return closest(withRole);
  if (target.name === undefined) return undefined;
  // The role is written differently by this tool (a tab that is only "clickable"): any element of that name,
  // controls before text.
  const byName = within.filter((at) => nodes[at] && named(nodes[at], target));
  const controls = byName.filter((at) => nodes[at]?.ref && !PLAIN.has(nodes[at]?.role ?? ''));
  if (controls.length > 0) return closest(controls);
  // A control the tool lists without a ref (Ionic's segment button, a role inside a clickable box): the
  // unnamed box around it that has one, which is what a model clicks.
  for (const at of byName.filter((hit) => !nodes[hit]?.ref && !PLAIN.has(nodes[hit]?.role ?? ''))) {
    const box = wrapperWithRef(nodes, at);
    if (box !== undefined && within.includes(box)) return box;
  }
  for (const at of byName) {
    const up = holder(nodes, at);
    if (up !== at) return up;
  }
  const texts = byName.filter((at) => nodes[at]?.ref);
  // A label written beside an unnamed control (`Window seat [switch]`, `[clickable] Train`): the control next to it.
  for (const at of byName.filter((hit) => PLAIN.has(nodes[hit]?.role ?? ''))) {
    for (const step of [1, -1, 2, -2]) {
      const beside = nodes[at + step];
      const fits = target.role === undefined || beside?.role === target.role || beside?.role === 'clickable';
      if (beside?.ref && fits && squash(beside.name) === '' && CONTROLS.has(beside.role) && within.includes(at + step))
        return at + step;
    }
  }
  return closest(texts);
}

/**
 * The node a target names in what a tool wrote, as a model reads it: with `in`, the one inside the
 * smallest block that holds that text; else the first (or the one nearest `nearRef`) by role and name,
 * by name, or by its label.
 */
export function locate(nodes: ReadNode[], target: Target, nearRef?: string): ReadNode | undefined {
  const all = nodes.map((_, index) => index);
  if (target.in === undefined) {
    // Of two alike, the one next to the element acted on last (the options a combobox just opened).
    const near =
      nearRef === undefined
        ? 0
        : Math.max(
            0,
            nodes.findIndex((node) => node.ref === nearRef),
          );
    const found = pick(nodes, all, target, near);
    return found === undefined ? undefined : nodes[found];
  }
  const scope = target.in;
  const anchor = nodes.findIndex((node) => squash(node.name).includes(scope));
  if (anchor < 0) return undefined;
  for (let block: number | undefined = anchor; block !== undefined; block = parentOf(nodes, block)) {
    const found = pick(nodes, subtree(nodes, block), target, anchor);
    if (found !== undefined && found !== anchor) return nodes[found];
  }
  const found = pick(nodes, all, target, anchor);
  return found === undefined ? undefined : nodes[found];
}

/** How a target is written in a failure message. */
export const describeTarget = (target: Target) =>
  `[${target.role ?? 'any role'} ${target.name === undefined ? '(unnamed)' : `"${target.name}"`}${target.in ? ` in "${target.in}"` : ''}]`;
