import type { Tool } from '@tabmcp/protocol';
import { actOn } from './act';
import { composedQueryAll, isTag } from './composed-tree';
import type { DomTool, ToolContext } from './dom-tool';
import { isDisabled, isTextField, roleOf } from './elements';
import { describe, formGetsTool } from './forms';
import { clean, isVisible, labelOf, type NameRegistry, slug } from './text';

const MAX_FIELD_TOOLS = 8;
const TEXT_FIELDS =
  'input, textarea, [contenteditable=""], [contenteditable=true], [contenteditable=plaintext-only], [role=textbox], [role=searchbox], [role=combobox][contenteditable]';

/**
 * Text fields that no form tool covers (outside forms, or the one field of a form with no submit
 * button, such as a todo list's "What needs to be done?"): `fill_<field> {value, submit?}`, where
 * submit presses Enter as a person would.
 */
export function fieldTools(
  doc: Document,
  names: NameRegistry,
  context: ToolContext,
  insideItem: (element: Element) => boolean,
): DomTool[] {
  const tools: DomTool[] = [];
  const formVerdicts = new Map<HTMLFormElement, boolean>();
  for (const element of composedQueryAll(doc, TEXT_FIELDS)) {
    if (tools.length >= MAX_FIELD_TOOLS) break;
    // Cheap tests first, visibility (layout and styles) last: a page of 25,000 rows has as many fields in items.
    if (!isTextField(element) || isDisabled(element) || insideItem(element)) continue;
    if (element.parentElement?.closest('[contenteditable]')) continue;
    const form = (element as HTMLInputElement).form ?? element.closest('form');
    if (form) {
      if (!formVerdicts.has(form)) formVerdicts.set(form, formGetsTool(form));
      if (formVerdicts.get(form)) continue;
    }
    if (!isVisible(element)) continue;
    tools.push(fieldTool(element, names, context));
  }
  return tools;
}

function fieldTool(element: Element, names: NameRegistry, context: ToolContext): DomTool {
  const label = labelOf(element) || element.getAttribute('name') || element.id;
  const name = names.claim(`fill_${slug(label, 40) || 'field'}`);
  const about = describe(labelOf(element), element);
  const maxLength = isTag(element, 'input') && element.maxLength > 0 ? element.maxLength : undefined;
  const tool: Tool = {
    name,
    description: clean(
      `Type into${about ? ` "${about}"` : ' the field'}, replacing its text; submit: true then presses Enter (to add or search).${roleOf(element) === 'combobox' ? ' The options it then shows come back in the answer; act select picks one.' : ''}`,
      300,
    ),
    inputSchema: {
      type: 'object',
      properties: {
        value: { type: 'string', ...(maxLength ? { maxLength } : {}) },
        submit: { type: 'boolean' },
      },
      required: ['value'],
    },
  };
  return {
    tool,
    isLive: () => element.isConnected,
    run: (args) =>
      actOn(element, 'fill', { value: args.value, submit: args.submit }, context, context.handles.of(element)),
    subject: (args) => ({ element, action: 'fill', submit: args.submit === true, values: { [label]: args.value } }),
  };
}
