import type { Page } from 'playwright-core';
import { contentBundle } from './dom-in-chromium';

/** One control of a page: the name tabmcp's page model gives it beside the one Chromium's accessibility tree does. */
export interface NamePair {
  role: string;
  ours: string;
  /** Undefined where Chromium's tree has no node for the element (it ignores it). */
  chromium: string | undefined;
  /** Chromium's role for the element. */
  chromiumRole?: string;
  /** The element's opening tag, to find it. */
  tag: string;
}

/**
 * - same: equal, spaces aside;
 * - oursOnly: Chromium has no name and tabmcp gives one (a checkbox named by its row, an icon's name);
 * - shortened: tabmcp's is the start of Chromium's (a long name cut at 80 characters, a caption whose state is left out);
 * - decoration: the same words, and Chromium adds what CSS draws (`::before { content: "❯" }`, an icon font's glyph)
 *   or spaces them otherwise: tabmcp leaves drawn glyphs out of names;
 * - differs: a finding.
 */
export type Verdict = 'same' | 'oursOnly' | 'shortened' | 'decoration' | 'notInTree' | 'differs';

const words = (text: string) => text.replace(/[^\p{L}\p{N}]+/gu, '');

const spaced = (text: string) => text.replace(/\s+/g, ' ').trim();

export function verdictOf(pair: NamePair): Verdict {
  if (pair.chromium === undefined) return 'notInTree';
  const ours = spaced(pair.ours);
  const theirs = spaced(pair.chromium);
  if (ours === theirs) return 'same';
  if (!theirs && ours) return 'oursOnly';
  const stem = ours.replace(/…$/, '').trim();
  if (stem && theirs.startsWith(stem)) return 'shortened';
  if (words(ours) === words(theirs)) return 'decoration';
  return 'differs';
}

/**
 * Whether tabmcp's role is Chromium's: the same, or the same thing said otherwise: a `<summary>` is a button to
 * tabmcp (HTML-AAM) and a DisclosureTriangle in Chromium's own names; a focusable element with no widget role is
 * `clickable` to tabmcp and generic (or a landmark, a list item…) to Chromium.
 */
export function sameRole(pair: NamePair): boolean {
  if (pair.chromiumRole === undefined || pair.role === pair.chromiumRole) return true;
  if (pair.role === 'button' && pair.chromiumRole === 'DisclosureTriangle') return true;
  return pair.role === 'clickable' && !WIDGET_ROLES_OF_CHROMIUM.has(pair.chromiumRole);
}

/** Chromium roles a `clickable` must not hide: a widget tabmcp should have named by its role. */
const WIDGET_ROLES_OF_CHROMIUM = new Set([
  'button',
  'checkbox',
  'combobox',
  'link',
  'listbox',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
  'treeitem',
]);

let bundled: Promise<string> | undefined;
function pageModelBundle(): Promise<string> {
  bundled ??= contentBundle(
    [
      "import { accessibleName, isVisible } from './dom-tools/text';",
      "import { isInteractive, roleOf } from './dom-tools/elements';",
      "import { composedQueryAll } from './dom-tools/composed-tree';",
      '(globalThis as Record<string, unknown>).__pageModel = { accessibleName, isVisible, isInteractive, roleOf, composedQueryAll };',
    ].join('\n'),
  );
  return bundled;
}

const PROBE = 'data-names-probe';

/** Every visible control tabmcp finds on the page, with its name and Chromium's for the same element. */
export async function namesOnPage(page: Page): Promise<NamePair[]> {
  await page.addScriptTag({ content: await pageModelBundle() });
  const ours = await page.evaluate((probe) => {
    type Model = {
      accessibleName(element: Element): { name: string };
      isVisible(element: Element): boolean;
      isInteractive(element: Element): boolean;
      roleOf(element: Element): string;
      composedQueryAll(root: Document, selector: string): Element[];
    };
    const model = (globalThis as unknown as { __pageModel: Model }).__pageModel;
    const found = model
      .composedQueryAll(document, '*')
      .filter((element) => model.isInteractive(element) && model.isVisible(element));
    return found.map((element, index) => {
      element.setAttribute(probe, String(index));
      return {
        role: model.roleOf(element),
        ours: model.accessibleName(element).name,
        tag: element.outerHTML.slice(0, element.outerHTML.indexOf('>') + 1).slice(0, 160),
      };
    });
  }, PROBE);
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const probeOf = new Map<number, number>();
    const visit = (node: typeof root) => {
      const attributes = node.attributes ?? [];
      for (let index = 0; index < attributes.length; index += 2)
        if (attributes[index] === PROBE) probeOf.set(node.backendNodeId, Number(attributes[index + 1]));
      for (const child of [
        ...(node.children ?? []),
        ...(node.shadowRoots ?? []),
        ...(node.contentDocument ? [node.contentDocument] : []),
      ])
        visit(child);
    };
    visit(root);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree', {});
    const chromiumNode = new Map<number, { name: string; role: string }>();
    for (const node of nodes)
      if (node.backendDOMNodeId !== undefined && !node.ignored)
        chromiumNode.set(probeOf.get(node.backendDOMNodeId) ?? -1, {
          name: String(node.name?.value ?? ''),
          role: String(node.role?.value ?? ''),
        });
    return ours.map((pair, index) => ({
      ...pair,
      chromium: chromiumNode.get(index)?.name,
      chromiumRole: chromiumNode.get(index)?.role,
    }));
  } finally {
    await cdp.detach();
  }
}
