import type { CallToolResult, Tool } from '@tabmcp/protocol';
import { itemActionSubject } from '../action-facts';
import { type Action, actOn } from './act';
import {
  composedChildren,
  composedContains,
  composedElements,
  composedParent,
  composedQuery,
  composedQueryAll,
  elementById,
  isTag,
} from './composed-tree';
import { type DomTool, errorResult, jsonResult, markedPageText, type ToolContext } from './dom-tool';
import { INTERACTIVE, isCheckable, isInteractive, isTextField } from './elements';
import { type HoverRules, hiddenRoot } from './hover';
import { renderMarkdown } from './render';
import { accessibleName, clean, isShown, type NameRegistry, quoted, slug, visibleText } from './text';

const MAX_COLLECTIONS = 8;
const MAX_ACTIONS = 16;
/** Items looked at to judge a collection and list its actions: linear pages stay linear. */
const MAX_SAMPLE = 200;
/** An item's read stops here: an agent reads what it needs, get_page_content {query} finds the rest. */
const MAX_ITEM_CHARS = 4_000;
/** Containers that are lists by their markup: one item is already a list. */
const LIST_CONTAINERS =
  'ul, ol, tbody, table, [role=list], [role=grid], [role=table], [role=feed], [role=tree], [role=rowgroup]';
/** Repeated controls there are navigation or a widget of their own, reached by open_link, click tools or act. */
const NOT_COLLECTIONS =
  'nav, [role=navigation], [role=menu], [role=menubar], [role=tablist], [role=toolbar], [role=radiogroup], [role=listbox], select, datalist, svg, head';
const SKIPPED_CHILDREN = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'LINK', 'META']);

type ControlKind = 'check' | 'click' | 'fill' | 'select';
interface ItemControl {
  element: Element;
  kind: ControlKind;
  caption: string;
  onHover: boolean;
}

/** A container whose children repeat; its items are found again at each call, so they are never stale. */
export interface Collection {
  container: Element;
  signature: string;
  name: string;
  items(): Element[];
  /** The first MAX_SAMPLE items: what the collection is judged and its actions listed on. */
  sample(): Element[];
}

export function findCollections(
  doc: Document,
  hover: HoverRules,
  excluded: (element: Element) => boolean,
): Collection[] {
  const found: Collection[] = [];
  // Whether an element is inside navigation, a menu or a widget, asked once per element of the page.
  const inWidget = new Map<Element, boolean>();
  const isInWidget = (element: Element): boolean => {
    const known = inWidget.get(element);
    if (known !== undefined) return known;
    const parent = composedParent(element);
    const verdict = element.matches(NOT_COLLECTIONS) || (parent !== null && isInWidget(parent));
    inWidget.set(element, verdict);
    return verdict;
  };
  // Only the innermost of nested repeats: a list of cards inside a repeated layout keeps the cards.
  // Deepest first (render order backwards), so a container around a found collection is skipped unread.
  const aroundCollection = new Set<Element>();
  const elements = composedElements(doc);
  for (let index = elements.length - 1; index >= 0; index--) {
    const container = elements[index] as Element;
    // Cheap tests first: on a page of 100,000 elements most are leaves or hold a single child.
    if (!mayHoldItems(container) || aroundCollection.has(container)) continue;
    // The cells of a table row are one item, never a list of their own.
    const tag = container.tagName;
    if (SKIPPED_CHILDREN.has(tag) || tag === 'TR' || tag === 'HTML') continue;
    if (isInWidget(container) || excluded(container)) continue;
    const collection = asCollection(container, hover);
    if (!collection) continue;
    found.push(collection);
    for (let node = composedParent(container); node && !aroundCollection.has(node); node = composedParent(node))
      aroundCollection.add(node);
  }
  return found.reverse().slice(0, MAX_COLLECTIONS);
}

/**
 * Whether a container could hold a collection at all: a list by its markup with a child, or any
 * element with two children, a shadow root or a slot (whose children are what it shows).
 */
function mayHoldItems(container: Element): boolean {
  const count = container.childElementCount;
  if (count >= 2) return true;
  if (count === 1 && (container.firstElementChild?.localName === 'slot' || container.matches(LIST_CONTAINERS)))
    return true;
  return container.shadowRoot !== null || container.localName === 'slot';
}

/** The first `max` shown children of `container` with `signature`: judging a list never looks at all of it. */
function firstItems(container: Element, signature: string, max: number): Element[] {
  const found: Element[] = [];
  for (const child of composedChildren(container)) {
    if (found.length >= max) break;
    if (itemSignature(child) === signature && isShown(child)) found.push(child);
  }
  return found;
}

function asCollection(container: Element, hover: HoverRules): Collection | undefined {
  // The children a person sees: a host's shadow content, a slot's assigned elements.
  const children = composedChildren(container).filter((child) => !SKIPPED_CHILDREN.has(child.tagName));
  const counts = new Map<string, number>();
  for (const child of children) {
    const key = itemSignature(child);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let signature = '';
  let count = 0;
  for (const [candidate, n] of counts) if (n > count) [signature, count] = [candidate, n];
  const isList = container.matches(LIST_CONTAINERS);
  if (count < (isList ? 1 : 2) || count < children.length * 0.6) return undefined;
  if (!isShown(container)) return undefined;
  const items = () =>
    composedChildren(container).filter((child) => itemSignature(child) === signature && isShown(child));
  // Judged on its first items: a table of 25,000 rows is a list after 200 as surely as after all.
  const current = firstItems(container, signature, MAX_SAMPLE);
  if (current.length < (isList ? 1 : 2)) return undefined;
  // A table whose one child is its body: the body is the list.
  if (current.length === 1 && current[0]?.matches(LIST_CONTAINERS)) return undefined;
  // A cheap look before the full one: most repeated boxes of a page hold no control at all.
  const withAny = current.filter((item) => isInteractive(item) || composedQuery(item, INTERACTIVE) !== undefined);
  if (withAny.length === 0 || withAny.length < current.length * 0.6) return undefined;
  const withControls = current.map((item) => controlsOf(item, hover));
  const acting = withControls.filter(
    (controls, index) => controls.length > 0 && !onlyItsOwnCaption(current[index], controls),
  );
  if (acting.length === 0 || acting.length < current.length * 0.6) return undefined;
  // Items with nothing but links (related pages, source files): open_link follows each by its text or
  // address and the page read shows them, so an item tool would only add its bytes to every list.
  if (withControls.every((controls) => controls.every(isShownLink))) return undefined;
  // A group of radio buttons is one control (a choice), not a list of items.
  const all = withControls.flat();
  if (all.every((control) => isTag(control.element, 'input') && control.element.type === 'radio')) return undefined;
  if (!isList) {
    // Generic boxes repeat only when their controls have the same shape (two unlike sections do not).
    const shapes = new Map<string, number>();
    for (const controls of withControls) {
      const shape = controls.map((control) => control.kind).join(',');
      shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    }
    if (Math.max(...shapes.values()) < current.length * 0.5) return undefined;
    // Layout boxes (a row of columns, a page's sections) are not items: items repeat one skeleton.
    if (!repeatsOneSkeleton(current)) return undefined;
  }
  return { container, signature, name: nameOf(container), items, sample: () => current };
}

/** Most items are built alike: the same tags at their first two levels, the same classes. */
function repeatsOneSkeleton(items: Element[]): boolean {
  const counts = new Map<string, number>();
  for (const item of items) {
    const children = [...item.children].map(
      (child) => `${child.tagName}(${[...child.children].map((c) => c.tagName).join()})`,
    );
    const key = `${typeof item.className === 'string' ? item.className.replace(/\d+/g, '#') : ''}|${children.join()}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Math.max(...counts.values()) >= Math.max(2, items.length * 0.6);
}

/** What the items of one collection share: their tag and role. */
export function itemSignature(element: Element): string {
  return `${element.tagName}|${element.getAttribute('role') ?? ''}`;
}

/**
 * An item that is nothing but one link or button (a menu entry, a filter, a spin box's − and +) has
 * nothing else to act on: it shows its caption, or, being the button itself, less than its name (an icon).
 */
function onlyItsOwnCaption(item: Element | undefined, controls: ItemControl[]): boolean {
  if (!item || controls.length !== 1 || controls[0]?.kind !== 'click') return false;
  const shown = clean(visibleText(item, 200));
  const caption = clean(controls[0].caption);
  return shown === caption || (controls[0].element === item && shown.length < caption.length);
}

/** A link a person sees, so open_link reaches it (one shown only on hover is the item tool's to reach). */
function isShownLink(control: ItemControl): boolean {
  const { element } = control;
  if (control.kind !== 'click' || control.onHover || !isTag(element, 'a') || !element.hasAttribute('href'))
    return false;
  return !element.href.startsWith('javascript:');
}

function controlsOf(item: Element, hover: HoverRules): ItemControl[] {
  const candidates = [...(isInteractive(item) ? [item] : []), ...composedQueryAll(item, INTERACTIVE)];
  const controls: ItemControl[] = [];
  for (const element of candidates) {
    let onHover = false;
    if (!isShown(element)) {
      const root = hiddenRoot(element, isShown);
      if (!hover.reveals(root) || !composedContains(item, root)) {
        // A native checkbox hidden behind its styled label is still what the label toggles.
        if (!(isCheckable(element) && element.closest('label') && isShown(element.closest('label') as Element)))
          continue;
      } else onHover = true;
    }
    const kind: ControlKind = isCheckable(element)
      ? 'check'
      : isTextField(element)
        ? 'fill'
        : isTag(element, 'select')
          ? 'select'
          : 'click';
    // A control inside another control of the item (a link wrapping a button) is that control.
    if (kind === 'click' && element !== item) {
      if (insideAnotherControl(element, item)) continue;
    }
    // The caption is asked for only when needed: most candidate lists are refused before.
    let caption: string | undefined;
    controls.push({
      element,
      kind,
      get caption() {
        caption ??= clean(accessibleName(element).name, 40);
        return caption;
      },
      onHover,
    });
  }
  return controls;
}

function insideAnotherControl(element: Element, item: Element): boolean {
  for (let node = composedParent(element); node && node !== item; node = composedParent(node))
    if (isInteractive(node)) return true;
  return false;
}

/** The collection's name: its label, caption, nearest heading, id or class, else what it is. */
function nameOf(container: Element): string {
  const own =
    container.getAttribute('aria-label') ??
    labelledBy(container) ??
    (container.closest('table')?.querySelector(':scope > caption')?.textContent || null) ??
    precedingHeading(container)?.textContent ??
    (container.id || null) ??
    (container.classList[0] || null);
  const base = slug(clean(own ?? ''), 30);
  if (base) return base;
  return container.matches('table, tbody, [role=table], [role=grid], [role=rowgroup]') ? 'table' : 'list';
}

function labelledBy(element: Element): string | null {
  const ids = element.getAttribute('aria-labelledby');
  if (!ids) return null;
  return ids
    .split(/\s+/)
    .map((id) => elementById(element, id)?.textContent ?? '')
    .join(' ');
}

function precedingHeading(element: Element): Element | undefined {
  let node: Element | null = element;
  for (let depth = 0; node && depth < 3; depth++, node = node.parentElement) {
    let sibling = node.previousElementSibling;
    for (let hops = 0; sibling && hops < 4; hops++, sibling = sibling.previousElementSibling) {
      if (/^H[1-6]$/.test(sibling.tagName)) return sibling;
    }
  }
  return undefined;
}

/** `<name>_item {item, action, value?}` for each collection. */
export function collectionTools(collections: Collection[], names: NameRegistry, context: ToolContext): DomTool[] {
  return collections.map((collection) => collectionTool(collection, names, context));
}

function collectionTool(collection: Collection, names: NameRegistry, context: ToolContext): DomTool {
  const name = names.claim(`${collection.name}_item`);
  const items = collection.sample();
  const perItem = items.map((item) => controlsOf(item, context.hover));
  const shared = sharedCaptions(perItem, items.length);
  const actions = actionsOf(perItem, shared);
  const tool: Tool = {
    name,
    description: clean(
      `Act on an item of the list ${quoted(collection.name.replace(/_/g, ' '), 40)}, given by its text (or a unique part) or 0-based index; "read" shows it with its handles.`,
      400,
    ),
    inputSchema: {
      type: 'object',
      properties: {
        item: { type: ['string', 'integer'] },
        action: { type: 'string', enum: actions },
        ...(actions.some((action) => action.startsWith('fill') || action.startsWith('select'))
          ? { value: { type: 'string' } }
          : {}),
      },
      required: ['item', 'action'],
    },
  };
  return {
    tool,
    isLive: () => collection.container.isConnected,
    run: (args) => runOnItem(collection, name, args, context),
    subject: (args) => itemActionSubject(args.action),
  };
}

function sharedCaptions(perItem: ItemControl[][], itemCount: number): Set<string> {
  const seen = new Map<string, number>();
  for (const controls of perItem) {
    for (const caption of new Set(controls.filter((c) => c.kind === 'click').map((c) => c.caption)))
      seen.set(caption, (seen.get(caption) ?? 0) + 1);
  }
  return new Set(
    [...seen].filter(([caption, n]) => caption && (n >= 2 || itemCount === 1)).map(([caption]) => caption),
  );
}

function actionsOf(perItem: ItemControl[][], shared: Set<string>): string[] {
  const actions = new Set<string>(['read']);
  const checkables = perItem.map((controls) => controls.filter((c) => c.kind === 'check'));
  if (checkables.some((list) => list.length === 1) && checkables.every((list) => list.length <= 1)) {
    actions.add('check');
    actions.add('uncheck');
  } else {
    for (const control of checkables.flat()) {
      actions.add(`check ${quoted(control.caption, 40)}`);
      actions.add(`uncheck ${quoted(control.caption, 40)}`);
    }
  }
  if (perItem.some((controls) => controls.some((c) => c.kind === 'click' && !shared.has(c.caption))))
    actions.add('open');
  for (const caption of shared) actions.add(`click ${quoted(caption, 40)}`);
  for (const control of perItem.flat()) {
    if (control.kind === 'fill' || control.kind === 'select')
      actions.add(`${control.kind} ${quoted(control.caption, 40)}`);
  }
  return [...actions].slice(0, MAX_ACTIONS);
}

async function runOnItem(
  collection: Collection,
  toolName: string,
  args: Record<string, unknown>,
  context: ToolContext,
): Promise<CallToolResult> {
  const items = collection.items();
  const picked = pickItem(items, args.item, collection.name);
  if ('error' in picked) return errorResult(picked.error);
  const { item, index } = picked;
  const action = typeof args.action === 'string' ? args.action : '';
  const label = `Item ${index} (${quoted(visibleText(item, 40), 40)})`;
  if (action === 'read') return readItem(item, index, context);
  const controls = controlsOf(item, context.hover);
  const match = /^(check|uncheck|click|fill|select) "(.*)"$/.exec(action);
  const verb = match?.[1] ?? action;
  const caption = match?.[2];
  let control: ItemControl | undefined;
  if (verb === 'open') {
    const shared = sharedCaptions(
      items.map((other) => controlsOf(other, context.hover)),
      items.length,
    );
    control =
      controls.find((c) => c.element === item) ??
      controls.find((c) => c.kind === 'click' && isTag(c.element, 'a') && !shared.has(c.caption)) ??
      controls.find((c) => c.kind === 'click' && !shared.has(c.caption));
  } else {
    const kind: ControlKind | undefined =
      verb === 'check' || verb === 'uncheck'
        ? 'check'
        : verb === 'click' || verb === 'fill' || verb === 'select'
          ? verb
          : undefined;
    if (!kind)
      return errorResult(`${toolName}: action ${quoted(action, 40)} is not one of its actions; list the tools again.`);
    control = controls.find(
      // Compared as the enum wrote it (quoted): the enum is exactly what the action takes.
      (c) => c.kind === kind && (caption === undefined || quoted(c.caption, 40).slice(1, -1) === caption),
    );
  }
  if (!control) {
    const has = [
      'read',
      ...new Set(controls.map((c) => (c.kind === 'check' ? 'check/uncheck' : `${c.kind} "${c.caption}"`))),
    ];
    return errorResult(`${label} has no control for ${quoted(action, 40)}; it has: ${has.join(', ')}.`);
  }
  const act: Action = verb === 'open' ? 'click' : (verb as Action);
  return actOn(control.element, act, { value: args.value }, context, label, control.onHover);
}

/** An item as get_page_content writes it, marked as page text and bounded (a whole article can be one item). */
function readItem(item: Element, index: number, context: ToolContext): CallToolResult {
  const text = renderMarkdown(item, context);
  const shown = text.length > MAX_ITEM_CHARS ? `${text.slice(0, MAX_ITEM_CHARS)}…` : text;
  return jsonResult({
    item: index,
    content: markedPageText(shown),
    ...(text.length > MAX_ITEM_CHARS
      ? { note: `The first ${MAX_ITEM_CHARS} of ${text.length} characters; get_page_content {query} finds a passage.` }
      : {}),
  });
}

function pickItem(
  items: Element[],
  wanted: unknown,
  listName: string,
): { item: Element; index: number } | { error: string } {
  const byIndex = (index: number) => {
    const item = items[index];
    if (!item)
      return {
        error: `Item ${index} is out of range: ${listName} has ${items.length} item${items.length === 1 ? '' : 's'}${items.length ? ` (0–${items.length - 1})` : ''}. Call get_page_content to see them.`,
      };
    return { item, index };
  };
  if (typeof wanted === 'number') {
    if (!Number.isInteger(wanted) || wanted < 0) return { error: 'item must be a text or a 0-based index (0, 1, …).' };
    return byIndex(wanted);
  }
  if (typeof wanted !== 'string' || !wanted.trim())
    return { error: 'item must be a text or a 0-based index (0, 1, …).' };
  const needle = clean(wanted, 300).toLowerCase();
  const texts = items.map((item) => visibleText(item, 300).toLowerCase());
  const exact = texts.flatMap((text, index) => (text === needle ? [index] : []));
  // A string of digits is an index, as an integer is; only an item whose whole text is those digits is read as text.
  if (/^\d+$/.test(needle)) return digitsItem(items, Number(needle), exact, byIndex);
  const words = needle.split(/\s+/).filter(Boolean);
  const partial = exact.length
    ? exact
    : firstNonEmpty(
        texts.flatMap((text, index) => (text.includes(needle) ? [index] : [])),
        // "Kiln House blue mug": every word in one item, in any order.
        texts.flatMap((text, index) => (words.length > 1 && words.every((word) => text.includes(word)) ? [index] : [])),
      );
  if (partial.length === 1) return byIndex(partial[0] as number);
  if (partial.length > 1)
    return {
      error: `${partial.length} items match ${quoted(wanted, 40)} (${partial.slice(0, 10).join(', ')}). Give the index instead.`,
    };
  const shown = items.slice(0, 5).map((item) => quoted(visibleText(item, 30), 30));
  return {
    error: `No item of ${listName} matches ${quoted(wanted, 40)}. Items: ${shown.join(', ')}${items.length > 5 ? ', …' : ''}.`,
  };
}

function digitsItem(
  items: Element[],
  index: number,
  exact: number[],
  byIndex: (index: number) => { item: Element; index: number } | { error: string },
): { item: Element; index: number } | { error: string } {
  const named = exact[0];
  if (named === undefined || exact.length > 1 || (named !== index && items[index] !== undefined)) {
    if (exact.length === 0 || named === index) return byIndex(index);
    return {
      error: `"${index}" is both item ${index} and the text of item${exact.length > 1 ? 's' : ''} ${exact.slice(0, 10).join(', ')}. Give item as an integer for the index.`,
    };
  }
  return byIndex(named);
}

function firstNonEmpty(...lists: number[][]): number[] {
  return lists.find((list) => list.length > 0) ?? [];
}
