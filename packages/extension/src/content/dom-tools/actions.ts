import type { Tool } from '@tabmcp/protocol';
import { type DomTool, errorResult, jsonResult } from './dom-tool';
import { actAndObserve } from './settle';
import { clean, isVisible, labelOf, type NameRegistry, shortHref, slug } from './text';

const BUTTONS = 'button, [role=button], input[type=button], input[type=submit]';
const MAX_BUTTON_TOOLS = 25;
const MAX_CONTEXTS = 30;
const ROW = 'li, tr, article, [role=row], [role=listitem], section, fieldset, div';

/**
 * Buttons outside forms become click tools named after their caption. Buttons that share a caption
 * (a "Select" on every result row) become one tool taking an index, each index described by its
 * row, as the spec's select_flight(index) and open_thread(index). References are captions, never
 * screen positions, so they survive re-renders.
 */
export function buttonTools(doc: Document, names: NameRegistry): DomTool[] {
  const groups = new Map<string, { caption: string; elements: HTMLElement[] }>();
  for (const element of doc.querySelectorAll<HTMLElement>(BUTTONS)) {
    if ((element as HTMLButtonElement).form || element.closest('form') || !isVisible(element)) continue;
    if ((element as HTMLButtonElement).disabled || element.getAttribute('aria-disabled') === 'true') continue;
    const caption = labelOf(element);
    const key = slug(caption);
    if (!key) continue;
    const group = groups.get(key) ?? { caption, elements: [] };
    group.elements.push(element);
    groups.set(key, group);
  }
  return [...groups.entries()].slice(0, MAX_BUTTON_TOOLS).map(([key, { caption, elements }]) => {
    const name = names.claim(/^(click|press|open|select|add|remove|show|toggle)_?/.test(key) ? key : `click_${key}`);
    if (elements.length === 1) {
      const element = elements[0] as HTMLElement;
      return {
        tool: {
          name,
          description: `Click the "${caption}" button${contextOf(element) ? ` (in: ${contextOf(element)})` : ''}.`,
          inputSchema: { type: 'object', properties: {}, additionalProperties: false },
          annotations: { title: caption, openWorldHint: true },
        },
        isLive: () => element.isConnected,
        run: async () => click(element, caption),
      };
    }
    const contexts = elements
      .slice(0, MAX_CONTEXTS)
      .map((element, index) => `${index}: ${contextOf(element) || caption}`)
      .join('; ');
    const tool: Tool = {
      name,
      description: clean(
        `Click one of the ${elements.length} "${caption}" buttons, chosen by index (0-based, page order): ${contexts}`,
        2_000,
      ),
      inputSchema: {
        type: 'object',
        properties: {
          index: { type: 'integer', minimum: 0, maximum: elements.length - 1, description: 'Which one (0-based)' },
        },
        required: ['index'],
        additionalProperties: false,
      },
      annotations: { title: caption, openWorldHint: true },
    };
    return {
      tool,
      isLive: () => elements.every((element) => element.isConnected),
      run: async (args) => {
        const element = elements[Number(args.index)];
        if (!element) return errorResult(`index must be 0 to ${elements.length - 1}`);
        return click(element, `${caption} #${args.index}`);
      },
    };
  });
}

/** Follows a link by its text or URL: one small tool instead of one per link. */
export function linkTool(doc: Document, names: NameRegistry): DomTool[] {
  const links = () =>
    [...doc.querySelectorAll<HTMLAnchorElement>('a[href]')].filter((a) => !a.href.startsWith('javascript:'));
  if (!links().some(isVisible)) return [];
  const tool: Tool = {
    name: names.claim('open_link'),
    description:
      'Follow a link of this page, given its text (as get_page_content shows it) or its URL. The tab navigates and its tools are refreshed.',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'The link text, exact or a unique part of it' },
        href: { type: 'string', description: 'Or its URL, as get_page_content shows it' },
      },
      additionalProperties: false,
    },
    annotations: { title: 'Open a link', openWorldHint: true },
  };
  return [
    {
      tool,
      isLive: () => true,
      run: async (args) => {
        const text = typeof args.text === 'string' ? args.text.trim().toLowerCase() : '';
        const href = typeof args.href === 'string' ? args.href.trim() : '';
        if (!text && !href) return errorResult('Give the link text or its href.');
        const all = links();
        const byHref = href
          ? all.filter((a) => a.href === href || a.getAttribute('href') === href || shortHref(a) === href)
          : [];
        const exact = text ? all.filter((a) => clean(a.textContent, 200).toLowerCase() === text) : [];
        const partial = text ? all.filter((a) => clean(a.textContent, 200).toLowerCase().includes(text)) : [];
        const target = byHref[0] ?? exact[0] ?? (partial.length === 1 ? partial[0] : undefined);
        if (!target) {
          const hint = partial.length > 1 ? `${partial.length} links match; be more precise` : 'no link matches';
          return errorResult(`${hint}. Call get_page_content to see the links.`);
        }
        const destination = target.href;
        // Answer before the page unloads; the click runs right after.
        setTimeout(() => target.click(), 0);
        return jsonResult({ opening: destination, text: clean(target.textContent) });
      },
    },
  ];
}

async function click(element: HTMLElement, caption: string) {
  if (!element.isConnected) return errorResult(`The "${caption}" button left the page; list the tools again.`);
  const changes = await actAndObserve(() => element.click());
  return jsonResult({ clicked: caption, title: document.title, url: location.href, ...(changes ? { changes } : {}) });
}

/** A short text of the row or card around an element, to tell same-captioned buttons apart. */
function contextOf(element: HTMLElement): string {
  let node = element.parentElement?.closest(ROW);
  while (node && clean((node as HTMLElement).innerText, 500).length <= labelOf(element).length + 2) {
    node = node.parentElement?.closest(ROW);
  }
  if (!node || node === element.ownerDocument.body) return '';
  return clean((node as HTMLElement).innerText.replace(labelOf(element), ''), 120);
}
