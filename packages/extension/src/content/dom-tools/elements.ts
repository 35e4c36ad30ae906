import { isTag } from './composed-tree';
import { isSortableHeader } from './sortable-headers';
import { isStyledControl } from './styled-controls';
import { accessibleName, clean, quoted } from './text';

/** ARIA roles of widgets a person operates (not containers such as grid, list or region). */
export const WIDGET_ROLES = [
  'button',
  'link',
  'checkbox',
  'switch',
  'radio',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'combobox',
  'textbox',
  'searchbox',
  'slider',
  'spinbutton',
  'treeitem',
];

/** What an agent can act on: native controls, links, ARIA widgets, and elements made focusable or clickable. */
export const INTERACTIVE = [
  'a[href]',
  'button',
  'input:not([type=hidden])',
  'select',
  'textarea',
  'summary',
  '[contenteditable=""]',
  '[contenteditable=true]',
  '[contenteditable=plaintext-only]',
  ...WIDGET_ROLES.map((role) => `[role=${role}]`),
  '[onclick]',
  '[tabindex]:not([tabindex="-1"])',
  // Rows, cells and headers of a grid or tree grid take the focus by script (a roving tabindex of -1).
  ...['row', 'gridcell', 'columnheader', 'rowheader'].map((role) => `[role=${role}][tabindex]`),
  // A table made a grid gives its cells the gridcell role: a date picker's days are `<td tabindex=-1>`.
  ...['grid', 'treegrid'].map((role) => `[role=${role}] td[tabindex]`),
  '[role=row][aria-expanded]',
  // A combobox's grid popup picks a row or a cell by aria-activedescendant: selectable, never focused.
  '[role=row][aria-selected]',
  '[role=gridcell][aria-selected]',
].join(',');

/** Focusable cells and headers: a sortable `<th tabindex=0>` is clicked as a button is. */
export const CLICKABLE_CELLS = 'th[tabindex], [role=columnheader][tabindex]';

const NATIVE_ROLES: Record<string, string> = {
  A: 'link',
  BUTTON: 'button',
  SUMMARY: 'button',
  TEXTAREA: 'textbox',
  TH: 'columnheader',
  TR: 'row',
  TD: 'cell',
};
const INPUT_ROLES: Record<string, string> = {
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
  button: 'button',
  submit: 'button',
  reset: 'button',
  image: 'button',
  file: 'button',
  color: 'button',
};
/** Typed inputs whose role is not textbox (HTML-AAM, as Chromium's accessibility tree gives them). */
const TYPED_INPUT_ROLES: Record<string, string> = { number: 'spinbutton', search: 'searchbox' };
const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

export function isInteractive(element: Element): boolean {
  return (
    element.matches(INTERACTIVE) ||
    isRovingMember(element) ||
    isSortableHeader(element) ||
    isStyledControl(element) ||
    isPopupGridCell(element)
  );
}

/**
 * A cell of the grid a combobox pops up (its `aria-controls`): the suggestions a person clicks, picked
 * by aria-activedescendant, so no cell takes the focus or says it is selectable until highlighted.
 */
function isPopupGridCell(element: Element): boolean {
  if (element.getAttribute('role') !== 'gridcell') return false;
  const grid = element.closest('[role=grid]');
  if (!grid?.id) return false;
  return grid.ownerDocument.querySelector(`[role=combobox][aria-controls~="${CSS.escape(grid.id)}"]`) !== null;
}

/**
 * A member of a roving-tabindex group (tabs, a toolbar, a grid's cells): `tabindex="-1"` beside a
 * sibling of the same tag that holds `tabindex="0"`. Web components give such members their role
 * through ElementInternals, which no attribute shows, so the group is how they are known.
 */
function isRovingMember(element: Element): boolean {
  if (element.getAttribute('tabindex') !== '-1') return false;
  for (const sibling of element.parentElement?.children ?? [])
    if (sibling !== element && sibling.localName === element.localName && sibling.getAttribute('tabindex') === '0')
      return true;
  return false;
}

/** Only a native or explicit widget: a `tabindex`/`onclick` element is interactive but no widget. */
export function roleOf(element: Element): string {
  const explicit = element.getAttribute('role')?.trim().split(/\s+/)[0];
  if (explicit && explicit !== 'presentation' && explicit !== 'none') return explicit;
  if (isTag(element, 'input')) return INPUT_ROLES[element.type] ?? TYPED_INPUT_ROLES[element.type] ?? 'textbox';
  if (isTag(element, 'select')) return element.multiple || element.size > 1 ? 'listbox' : 'combobox';
  if (isTag(element, 'a')) return element.hasAttribute('href') ? 'link' : 'clickable';
  const native = NATIVE_ROLES[element.tagName];
  // HTML-AAM: a cell of a table made a grid is a gridcell.
  if (native === 'cell' && element.closest('table')?.matches('[role=grid], [role=treegrid]')) return 'gridcell';
  if (native) return native;
  if ((element as HTMLElement).isContentEditable) return 'textbox';
  return 'clickable';
}

export function isCheckable(element: Element): boolean {
  return CHECKABLE_ROLES.has(roleOf(element));
}

/** An `<input>` a person types into (text, search, number, email, date…) that no ARIA role makes another widget. */
export function isTypedInput(element: Element): element is HTMLInputElement {
  return isTag(element, 'input') && INPUT_ROLES[element.type] === undefined && TYPED_ROLES.has(roleOf(element));
}
const TYPED_ROLES = new Set(['textbox', 'searchbox', 'spinbutton']);

/**
 * A field that takes typed text: text-like inputs (an editable combobox or search box among them,
 * whatever its ARIA role), textareas, contenteditable roots, ARIA textboxes.
 */
export function isTextField(element: Element): boolean {
  if (isTag(element, 'input')) return INPUT_ROLES[element.type] === undefined && !element.readOnly;
  if (isTag(element, 'textarea')) return !element.readOnly;
  const role = roleOf(element);
  return (
    (element as HTMLElement).isContentEditable ||
    ((role === 'textbox' || role === 'searchbox' || role === 'combobox') && element.hasAttribute('contenteditable'))
  );
}

/**
 * true, false, `'mixed'` (a tri-state box that is partly on: neither checking nor unchecking it is
 * done already), or undefined for an element that has no checked state.
 */
export function checkedState(element: Element): boolean | 'mixed' | undefined {
  if (isTag(element, 'input') && (element.type === 'checkbox' || element.type === 'radio'))
    return element.indeterminate && element.type === 'checkbox' ? 'mixed' : element.checked;
  const aria = element.getAttribute('aria-checked') ?? element.getAttribute('aria-pressed');
  if (aria === 'true') return true;
  if (aria === 'mixed') return 'mixed';
  if (aria === 'false') return false;
  return undefined;
}

export function isDisabled(element: Element): boolean {
  return element.matches(':disabled') || element.closest('[aria-disabled="true"]') !== null;
}

/** The value a person sees in a field; undefined for elements that have none. */
function shownValue(element: Element, max = 80): string | undefined {
  if (isTag(element, 'input')) {
    if (roleOf(element) === 'slider') return element.value;
    if (INPUT_ROLES[element.type] !== undefined) return undefined;
    if (element.type === 'password') return element.value ? '•••' : '';
    return clean(element.value, max);
  }
  if (isTag(element, 'textarea')) return clean(element.value, max);
  if (isTag(element, 'select')) {
    return clean([...element.selectedOptions].map((option) => option.label || option.text).join(', '), max);
  }
  // innerText, as the readback reads it: an editor's lines are blocks or <br>s, which textContent runs together.
  if ((element as HTMLElement).isContentEditable) return clean((element as HTMLElement).innerText, max);
  const aria = element.getAttribute('aria-valuetext') ?? element.getAttribute('aria-valuenow');
  return aria === null ? undefined : clean(aria, max);
}

const MAX_OPTIONS_SHOWN = 8;

/** The words in parentheses after a name: state a person would notice. */
function flagsOf(element: Element, onHover: boolean): string[] {
  const flags: string[] = [];
  if (isDisabled(element)) flags.push('disabled');
  if (element.matches(':required') || element.getAttribute('aria-required') === 'true') flags.push('required');
  // Checkboxes and buttons match :read-only too; only a text field can be read-only to a person.
  if (
    element.matches(':read-only') &&
    (roleOf(element) === 'textbox' || isTypedInput(element) || isTag(element, 'textarea'))
  )
    flags.push('readonly');
  if (element.getAttribute('aria-invalid') === 'true' || element.matches(':user-invalid')) flags.push('invalid');
  if (element.getAttribute('aria-selected') === 'true') flags.push('selected');
  // A header's sort state, also on the sort button inside it (DataTables puts one there).
  const sort = (element.closest('th[aria-sort], [role=columnheader][aria-sort]') ?? element).getAttribute('aria-sort');
  if (sort === 'ascending' || sort === 'descending') flags.push(`sorted ${sort}`);
  const current = element.getAttribute('aria-current');
  if (current && current !== 'false') flags.push('current');
  const expanded = element.getAttribute('aria-expanded') ?? disclosedState(element);
  if (expanded === 'true') flags.push('expanded');
  else if (expanded === 'false') flags.push('collapsed');
  if (onHover) flags.push('on hover');
  if (isTag(element, 'select')) {
    const options = [...element.options].filter((option) => !option.disabled);
    const shown = options.slice(0, MAX_OPTIONS_SHOWN).map((option) => clean(option.label || option.text, 30));
    if (options.length > MAX_OPTIONS_SHOWN) shown.push('…');
    flags.push(`options: ${shown.join(', ').replace(/"/g, "'").replace(/\[/g, '(').replace(/\]/g, ')')}`);
  }
  return flags;
}

/** A `<details>` element's summary is expanded as its details are open (HTML-AAM; the triangle a person sees). */
function disclosedState(element: Element): string | null {
  const details = element.parentElement;
  if (!isTag(element, 'summary') || !details || !isTag(details, 'details')) return null;
  if (details.querySelector(':scope > summary') !== element) return null;
  return details.open ? 'true' : 'false';
}

/**
 * An element as get_page_content writes it: `[checkbox ☑ "Buy milk" k7]`. `withName` is false when
 * the reader shows the name as text already; a name taken from a shown <label> is left out when the
 * label is around or after the field or, where the reader says (`labelWritten`), is the text written right before it.
 */
export function token(
  element: Element,
  handle: string,
  options: {
    onHover?: boolean;
    withName?: boolean;
    labelWritten?: (name: string) => boolean;
    scrollable?: boolean;
  } = {},
) {
  const role = roleOf(element);
  // A scrolling box with no role of its own is no control to click: it is said to scroll.
  const parts: string[] = [options.scrollable && role === 'clickable' ? 'scrollable' : role];
  const checked = checkedState(element);
  if (checked !== undefined) parts.push(checked === 'mixed' ? '◩ (mixed)' : checked ? '☑' : '☐');
  const { name, from } = accessibleName(element);
  const labelShown =
    from === 'label' && isLabelShown(element) && (labelFollows(element) || (options.labelWritten?.(name) ?? true));
  if (name && (options.withName ?? true) && !labelShown) parts.push(quoted(name));
  const value = shownValue(element);
  if (value !== undefined && role !== 'checkbox' && role !== 'radio') parts.push(`= ${quoted(value)}`);
  const hint = value === '' ? placeholderBesideName(element, name) : undefined;
  if (hint) parts.push(`placeholder ${quoted(hint)}`);
  const flags = flagsOf(element, options.onHover ?? false);
  if (options.scrollable && role !== 'clickable') flags.push('scrollable');
  if (flags.length) parts.push(`(${flags.join(', ')})`);
  parts.push(handle);
  return `[${parts.join(' ')}]`;
}

/**
 * The hint an empty field shows, where its name is something else (`aria-label="New todo"` on a box that reads
 * "What needs to be done?", a date field that reads "mm/dd/yyyy"): what a person sees in the box, and looks for.
 */
function placeholderBesideName(element: Element, name: string): string | undefined {
  const hint = clean(element.getAttribute('placeholder') ?? element.getAttribute('aria-placeholder'));
  return hint && hint !== name ? hint : undefined;
}

/** `checkbox "Buy milk"`: how an error names an element. */
export function describeElement(element: Element): string {
  const { name } = accessibleName(element);
  return name ? `${roleOf(element)} ${quoted(name, 40)}` : roleOf(element);
}

/** A label around its field or after it (a checkbox's caption) is read beside the token. */
function labelFollows(element: Element): boolean {
  const label = (element as HTMLInputElement).labels?.[0];
  return (
    label !== undefined &&
    (label.contains(element) || (element.compareDocumentPosition(label) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0)
  );
}

function isLabelShown(element: Element): boolean {
  const label = (element as HTMLInputElement).labels?.[0];
  return label !== undefined && label.checkVisibility?.() !== false;
}
