import type { Tool } from '@tabmcp/protocol';
import { ownPageTool } from '@tabmcp/protocol/light';
import { actOn } from './act';
import { composedQueryAll } from './composed-tree';
import { type DomTool, errorResult, NO_ARGUMENTS, type ToolContext } from './dom-tool';
import { CLICKABLE_CELLS, describeElement, isDisabled, token } from './elements';
import { clean, isVisible, labelOf, type NameRegistry, quoted, shortHref, slug } from './text';

/** Button-like controls found by role and accessible name, not only <button>. */
const BUTTONS = [
  'button',
  'summary',
  'input[type=button]',
  'input[type=submit]',
  '[role=button]',
  '[role=tab]',
  '[role=menuitem]',
  '[role=menuitemcheckbox]',
  '[role=menuitemradio]',
  CLICKABLE_CELLS,
].join(',');
const MAX_BUTTON_TOOLS = 20;
const VERB =
  /^(click|press|open|close|select|add|remove|delete|show|hide|toggle|clear|load|next|previous|go|sign|log)_/;

/**
 * Button-like controls outside forms and collections become click tools named after their caption.
 * Several that share a caption (a "Load more" in two places) become one tool taking an index.
 * References are captions, never screen positions, so they survive re-renders.
 */
/**
 * A counter at the end of a caption ("Resend the code (0:07)", "Inbox (12)") is state, not identity:
 * the tool's name and description leave it out, so a countdown does not change the tool list every second.
 */
const TRAILING_COUNTER = /\s*[([]\s*[\d:.,]+\s*[)\]]\s*$/;
const withoutCounter = (caption: string) => caption.replace(TRAILING_COUNTER, '');

export function buttonTools(
  doc: Document,
  names: NameRegistry,
  context: ToolContext,
  covered: (element: Element) => boolean,
): DomTool[] {
  const groups = new Map<string, { caption: string; elements: Element[] }>();
  for (const element of composedQueryAll(doc, BUTTONS)) {
    if (covered(element) || isDisabled(element)) continue;
    const label = labelOf(element);
    // Past the listed number of tools, only more of the listed captions matter (linear on huge pages).
    if (!slug(label, 40) || (groups.size >= MAX_BUTTON_TOOLS && !groups.has(label))) continue;
    if (!isVisible(element)) continue;
    const caption = stableCaption(element, label);
    // Grouped by the caption itself, not its slug: "+1" and "-1", "C++" and "C#" are two tools.
    const group = groups.get(caption) ?? { caption, elements: [] };
    group.elements.push(element);
    groups.set(caption, group);
  }
  return [...groups.values()].slice(0, MAX_BUTTON_TOOLS).map(({ caption, elements }) => {
    const named = slug(withoutCounter(caption), 40) ? withoutCounter(caption) : caption;
    const key = slug(named, 40);
    const name = names.claim(VERB.test(`${key}_`) ? key : `click_${key}`);
    const what = clean(`the "${named}" ${kindOf(elements[0])}`, 120);
    const several = elements.length > 1;
    const tool: Tool = {
      name,
      description: several ? `Click one of the ${what} controls, by index (0-based, page order).` : `Click ${what}.`,
      inputSchema: several
        ? {
            type: 'object',
            properties: { index: { type: 'integer', minimum: 0 } },
            required: ['index'],
          }
        : NO_ARGUMENTS,
    };
    return {
      tool,
      isLive: () => elements.every((element) => element.isConnected),
      run: async (args) => {
        const index = several ? Number(args.index) : 0;
        const element = elements[index];
        if (!element)
          return errorResult(`index must be 0 to ${elements.length - 1}. Call get_page_content to see them.`);
        return actOn(element, 'click', {}, context, several ? `${caption} #${index}` : caption);
      },
      subject: (args) => ({ element: elements[several ? Number(args.index) : 0], action: 'click' }),
    };
  });
}

/** What a label adds after the caption a person reads: state or instructions, after a separator. */
const ADDED_TO_CAPTION = /^\s*[:,;(–—-]/;

/**
 * The name a control keeps while its state changes: a label that is the caption a person reads plus
 * state or instructions ("Age: activate to sort column ascending", then "… descending") is named by
 * that caption, so one click does not rename its tool. The caption is the control's own text, or for
 * an empty control (a sort button of no size) the text of the box around it.
 */
function stableCaption(element: Element, label: string): string {
  const own = clean((element as HTMLElement).innerText, 200);
  const shown = own || clean(element.parentElement?.innerText, 200);
  if (!shown || shown === label || !label.toLowerCase().startsWith(shown.toLowerCase())) return label;
  return ADDED_TO_CAPTION.test(label.slice(shown.length)) ? shown : label;
}

function kindOf(element: Element | undefined): string {
  const role = element?.getAttribute('role');
  if (role === 'tab') return 'tab';
  if (role?.startsWith('menuitem')) return 'menu item';
  return 'button';
}

/** Follows a link by its text or URL: one small tool instead of one per link. */
export function linkTool(name: string, doc: Document, context: ToolContext): DomTool {
  const links = () =>
    composedQueryAll<HTMLAnchorElement>(doc, 'a[href]').filter((a) => !a.href.startsWith('javascript:'));
  const tool = ownPageTool('open_link', name);
  return {
    tool,
    isLive: () => true,
    run: async (args) => {
      const text = typeof args.text === 'string' ? clean(args.text, 200).toLowerCase() : '';
      const href = typeof args.href === 'string' ? args.href.trim() : '';
      if (!text && !href) return errorResult('Give the link text or its href.');
      // Only links a person sees: a hidden twin with the same text or address is never followed.
      const shown = links().filter(isVisible);
      // Any form of the address: as written, as the read shows it (relative to this page), or resolved.
      const resolved = href ? resolvedHref(href, doc) : undefined;
      const byHref = href
        ? shown.filter(
            (a) => a.href === href || a.getAttribute('href') === href || shortHref(a) === href || a.href === resolved,
          )
        : [];
      const textOf = (a: HTMLAnchorElement) => (labelOf(a) || clean(a.textContent, 200)).toLowerCase();
      const exact = text ? shown.filter((a) => textOf(a) === text) : [];
      const partial = text ? shown.filter((a) => textOf(a).includes(text)) : [];
      const candidates = byHref.length ? byHref : exact.length ? exact : partial;
      // Several links to one address go to the same place; several places are for the agent to choose.
      if (new Set(candidates.map((a) => a.href)).size > 1) {
        const listed = candidates
          .slice(0, 10)
          .map((a) => `${token(a, context.handles.of(a))}(${shortHref(a)})`)
          .join(' ');
        return errorResult(
          `${candidates.length} links match${text ? ` ${quoted(text, 40)}` : ''}: ${listed}${candidates.length > 10 ? ' …' : ''}. Give its href, or act {handle, action: "click"}.`,
        );
      }
      const target = candidates[0];
      if (!target) return errorResult('No link matches. Call get_page_content to see the links.');
      // A route of a single-page app answers with its changes; a new document, once it loaded.
      return context.perform(`followed ${describeElement(target)}`, () => target.click());
    },
  };
}

function resolvedHref(href: string, doc: Document): string | undefined {
  try {
    return new URL(href, doc.baseURI).href;
  } catch {
    return undefined;
  }
}
