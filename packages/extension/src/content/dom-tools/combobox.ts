import { composedQueryAll, elementById, isTag } from './composed-tree';
import { isTextField, roleOf } from './elements';
import { fillText } from './input';
import { clean, isVisible, labelOf, quoted, visibleText } from './text';
import { aimAt, pointerClick } from './trusted-actions';

/** How long the options of a combobox get to show after it was opened or typed into. */
const OPTIONS_WAIT_MS = 2_000;
const ANIMATION_ENDS = ['animationend', 'transitionend'] as const;

/**
 * An ARIA combobox that is not a native <select>: an editable one (`<input role=combobox>`, type-
 * ahead search) or a button-like one (a component library's select). Its options are
 * `role=option` elements, in the listbox it controls, or in a portal or shadow root elsewhere.
 */
export function isCombobox(element: Element): boolean {
  return !isTag(element, 'select') && roleOf(element) === 'combobox';
}

/**
 * Opens the combobox as a person would (types `wanted` into an editable one, so the page filters,
 * else clicks it), waits for the option whose text is `wanted` (exactly, else the one option that
 * starts with it) and clicks it. Throws a sentence listing the options when none fits.
 */
export async function chooseOption(combobox: Element, wanted: string): Promise<string> {
  // What already read `wanted` before the list opened (a label, the current choice) is no option of it.
  const before = new Set(elementsReading(combobox.ownerDocument, wanted));
  if (takesTyping(combobox)) fillText(combobox, wanted);
  else await clickAsAPerson(combobox, 'it');
  const option = await waitForOption(combobox, wanted, before);
  const label = labelOf(option);
  await clickAsAPerson(option, `the option ${quoted(label, 40)}`);
  return label;
}

/**
 * A combobox one types into to filter its list. An input marked `inputmode="none"` is one the page
 * says no keyboard is for (HTML: it draws its own control): Vuetify's v-select keeps one inside its
 * field, where typing only jumps its choice to a matching entry; a person clicks such a select open.
 */
function takesTyping(combobox: Element): boolean {
  return isTextField(combobox) && combobox.getAttribute('inputmode') !== 'none';
}

/** How long a list that is still moving into place (a menu's opening animation) is waited for. */
const SETTLE_INTO_PLACE_MS = 1_000;

/**
 * A click where a pointer reaches (hit-test.ts), with the browser's own input where it can be sent.
 * A list that opens with an animation is not under the pointer until it ends: the point is looked for
 * again at each painted frame, for a bounded time, as a person waits for the menu to open.
 */
async function clickAsAPerson(element: Element, what: string): Promise<void> {
  let aim = aimAt(element);
  const until = performance.now() + SETTLE_INTO_PLACE_MS;
  while (!aim.reached && performance.now() < until) {
    await nextFrame(element);
    aim = aimAt(element, false);
  }
  if (!aim.reached) throw new Error(`${what} could not be clicked: ${aim.why}`);
  await pointerClick(aim, 1);
}

/** The next painted frame, or 50 ms in a tab that paints none. */
function nextFrame(element: Element): Promise<void> {
  const view = element.ownerDocument.defaultView ?? window;
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 50);
    view.requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * What the combobox shows once an option was chosen: its value or its text names the option (a
 * component library's select shows it in its trigger). Checked as a person would look, so an answer
 * never says "selected" while the page shows the old choice.
 */
export function expectChosen(combobox: Element, label: string): () => string | undefined {
  return () => {
    if (!combobox.isConnected) return undefined;
    const shown = `${(combobox as HTMLInputElement).value ?? ''} ${visibleText(combobox, 200)}`.toLowerCase();
    if (shown.includes(clean(label, 200).toLowerCase())) return undefined;
    return `${quoted(clean(visibleText(combobox, 80) || (combobox as HTMLInputElement).value || '', 80), 80)} is what it shows: the page did not take the choice`;
  };
}

function waitForOption(combobox: Element, wanted: string, before: Set<Element>): Promise<Element> {
  return new Promise((resolve, reject) => {
    const look = () => {
      const options = optionsOf(combobox);
      // A list that marks no option by role (a library's menu of plain boxes): what newly reads `wanted`.
      const found =
        pick(options, wanted) ??
        (options.length === 0
          ? elementsReading(combobox.ownerDocument, wanted).find((element) => !before.has(element))
          : undefined);
      if (!found) return false;
      finish();
      resolve(found);
      return true;
    };
    const observer = new MutationObserver(() => void look());
    // Options often show by an opacity or transform animation, which ends with no DOM mutation: look
    // again on each frame the browser paints (and on animation or transition end, for a hidden tab
    // that paints no frames), until the bound below.
    const view = combobox.ownerDocument.defaultView ?? window;
    let frame = 0;
    const onFrame = () => {
      if (!look()) frame = view.requestAnimationFrame(onFrame);
    };
    const onAnimationEnd = () => void look();
    const timer = setTimeout(() => {
      finish();
      const shown = optionsOf(combobox)
        .slice(0, 20)
        .map((option) => quoted(labelOf(option), 30));
      reject(
        new Error(
          `no option ${quoted(wanted, 40)} showed within ${OPTIONS_WAIT_MS / 1000} s; ${shown.length ? `options: ${shown.join(', ')}` : 'no options showed'}. Call get_page_content to see the list.`,
        ),
      );
    }, OPTIONS_WAIT_MS);
    const finish = () => {
      observer.disconnect();
      clearTimeout(timer);
      view.cancelAnimationFrame(frame);
      for (const type of ANIMATION_ENDS) view.removeEventListener(type, onAnimationEnd, true);
    };
    if (look()) return;
    frame = view.requestAnimationFrame(onFrame);
    for (const type of ANIMATION_ENDS) view.addEventListener(type, onAnimationEnd, true);
    // Options show by a change anywhere: in the listbox's shadow root, a portal at the end of the body.
    const doc = combobox.ownerDocument;
    observer.observe(doc, { childList: true, subtree: true, attributes: true });
    for (let node: Node = combobox.getRootNode(); node !== doc && 'host' in node; ) {
      observer.observe(node, { childList: true, subtree: true, attributes: true });
      node = (node as ShadowRoot).host.getRootNode();
    }
  });
}

/** The visible options the combobox controls (aria-controls, aria-owns), else every visible option of the page. */
function optionsOf(combobox: Element): Element[] {
  const ids = `${combobox.getAttribute('aria-controls') ?? ''} ${combobox.getAttribute('aria-owns') ?? ''}`
    .split(/\s+/)
    .filter(Boolean);
  const lists = ids.map((id) => elementById(combobox, id)).filter((list): list is Element => list !== null);
  const owned = lists.flatMap((list) => [
    ...(list.getAttribute('role') === 'option' ? [list] : []),
    ...composedQueryAll(list, '[role=option]'),
  ]);
  const options = owned.length ? owned : composedQueryAll(combobox.ownerDocument, '[role=option]');
  return options.filter((option) => isVisible(option) && option.getAttribute('aria-disabled') !== 'true');
}

/**
 * The innermost shown elements whose whole text is `wanted` (case and spaces aside), as a person finds
 * an entry of a list by reading it; text nodes only, so a large page costs one pass over its text.
 */
function elementsReading(doc: Document, wanted: string): Element[] {
  const needle = clean(wanted, 200).toLowerCase();
  if (!needle || !doc.body) return [];
  const found: Element[] = [];
  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (clean(node.textContent, 200).toLowerCase() !== needle) continue;
    const element = node.parentElement;
    if (element && isVisible(element)) found.push(element);
  }
  return found;
}

function pick(options: Element[], wanted: string): Element | undefined {
  const needle = clean(wanted, 200).toLowerCase();
  const text = (option: Element) => clean(labelOf(option), 200).toLowerCase();
  const exact = options.filter((option) => text(option) === needle);
  if (exact.length) return exact[0];
  const starting = options.filter((option) => text(option).startsWith(needle));
  return starting.length === 1 ? starting[0] : undefined;
}
