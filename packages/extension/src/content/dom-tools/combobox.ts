import { clickInTurns } from './click-in-turns';
import { composedQueryAll, elementById, isTag } from './composed-tree';
import { isTextField, roleOf } from './elements';
import { fillText } from './input';
import { clean, isVisible, labelOf, quoted } from './text';

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
  if (isTextField(combobox)) fillText(combobox, wanted);
  else await clickInTurns(combobox);
  const option = await waitForOption(combobox, wanted);
  await clickInTurns(option);
  return labelOf(option);
}

function waitForOption(combobox: Element, wanted: string): Promise<Element> {
  return new Promise((resolve, reject) => {
    const look = () => {
      const found = pick(optionsOf(combobox), wanted);
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

function pick(options: Element[], wanted: string): Element | undefined {
  const needle = clean(wanted, 200).toLowerCase();
  const text = (option: Element) => clean(labelOf(option), 200).toLowerCase();
  const exact = options.filter((option) => text(option) === needle);
  if (exact.length) return exact[0];
  const starting = options.filter((option) => text(option).startsWith(needle));
  return starting.length === 1 ? starting[0] : undefined;
}
