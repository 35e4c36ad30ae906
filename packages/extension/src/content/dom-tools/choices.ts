import type { Tool } from '@tabmcp/protocol';
import { actOn } from './act';
import { composedQueryAll } from './composed-tree';
import { type DomTool, errorResult, type ToolContext } from './dom-tool';
import { isDisabled, roleOf } from './elements';
import { clean, isVisible, labelOf, type NameRegistry, quoted, slug } from './text';

const MAX_CHOICE_TOOLS = 8;
const MAX_OPTIONS = 30;
const CHECKABLES = 'input[type=checkbox], [role=checkbox], [role=switch]';

/**
 * The choices that no form tool covers (a settings panel saves each control on its own):
 * `select_<label> {value}` for a <select>, `set_<label> {checked}` for a checkbox or switch and
 * `choose_<group> {value}` for a group of radio buttons, each with its options as an enum.
 */
export function choiceTools(
  doc: Document,
  names: NameRegistry,
  context: ToolContext,
  covered: (element: Element) => boolean,
): DomTool[] {
  const tools: DomTool[] = [];
  const usable = (element: Element) => !isDisabled(element) && !covered(element);
  for (const select of composedQueryAll<HTMLSelectElement>(doc, 'select')) {
    if (tools.length >= MAX_CHOICE_TOOLS) return tools;
    if (!select.multiple && isVisible(select) && usable(select)) tools.push(selectTool(select, names, context));
  }
  for (const box of composedQueryAll(doc, CHECKABLES)) {
    if (tools.length >= MAX_CHOICE_TOOLS) return tools;
    // A box with no name would be a generic `set_checkbox`: act reaches it with its handle instead.
    if (usable(box) && labelOf(box) && (isVisible(box) || isVisible(box.closest('label') ?? box)))
      tools.push(checkTool(box, names, context));
  }
  // A group is one name in one form, or in one tree (the document, a shadow root) outside forms.
  const groups = new Map<Node, Map<string, HTMLInputElement[]>>();
  for (const radio of composedQueryAll<HTMLInputElement>(doc, 'input[type=radio][name]')) {
    if (!usable(radio) || !(isVisible(radio) || isVisible(radio.closest('label') ?? radio))) continue;
    const owner: Node = radio.form ?? radio.getRootNode();
    const byName = groups.get(owner) ?? new Map<string, HTMLInputElement[]>();
    byName.set(radio.name, [...(byName.get(radio.name) ?? []), radio]);
    groups.set(owner, byName);
  }
  for (const radios of [...groups.values()].flatMap((byName) => [...byName.values()])) {
    if (tools.length >= MAX_CHOICE_TOOLS) return tools;
    if (radios.length >= 2) tools.push(radioTool(radios, names, context));
  }
  return tools;
}

/** An option as a person reads it (its label, else its text); long ones whole, so the enum is what the tool takes. */
function optionText(option: HTMLOptionElement): string {
  return clean(option.label || option.text, 200);
}

function selectTool(select: HTMLSelectElement, names: NameRegistry, context: ToolContext): DomTool {
  const label = labelOf(select) || select.name || select.id;
  const options = [...select.options].filter((option) => !option.disabled).slice(0, MAX_OPTIONS);
  const tool: Tool = {
    name: names.claim(`select_${slug(label, 40) || 'option'}`),
    description: clean(`Choose an option of "${label || 'the list'}" (it is applied at once, as a person would).`, 300),
    inputSchema: {
      type: 'object',
      properties: { value: { type: 'string', enum: [...new Set(options.map(optionText))] } },
      required: ['value'],
    },
  };
  return {
    tool,
    isLive: () => select.isConnected,
    run: (args) => {
      // Each value of the enum names its option: selected by the option's value, which select always takes.
      const option = options.find((candidate) => optionText(candidate) === args.value);
      if (!option)
        return Promise.resolve(
          errorResult(
            `No option ${quoted(String(args.value), 40)}; the options: ${options.map(optionText).join(', ')}.`,
          ),
        );
      return actOn(select, 'select', { value: option.value }, context, context.handles.of(select));
    },
  };
}

function checkTool(box: Element, names: NameRegistry, context: ToolContext): DomTool {
  const label = labelOf(box) || box.getAttribute('name') || box.id;
  const kind = roleOf(box) === 'switch' ? 'switch' : 'checkbox';
  const tool: Tool = {
    name: names.claim(`set_${slug(label, 40) || kind}`),
    description: clean(`Turn the ${kind} "${label || kind}" on (checked: true) or off (checked: false).`, 300),
    inputSchema: {
      type: 'object',
      properties: { checked: { type: 'boolean' } },
      required: ['checked'],
    },
  };
  return {
    tool,
    isLive: () => box.isConnected,
    run: (args) => actOn(box, args.checked === false ? 'uncheck' : 'check', {}, context, context.handles.of(box)),
  };
}

function radioTool(radios: HTMLInputElement[], names: NameRegistry, context: ToolContext): DomTool {
  const first = radios[0] as HTMLInputElement;
  const legend = first.closest('fieldset')?.querySelector(':scope > legend')?.textContent;
  const label = clean(legend, 60) || first.name;
  const choiceOf = (radio: HTMLInputElement) => labelOf(radio) || radio.value;
  const choices = radios.map(choiceOf);
  const tool: Tool = {
    name: names.claim(`choose_${slug(label, 40) || 'option'}`),
    description: clean(`Pick one of the choices of "${label}".`, 300),
    inputSchema: {
      type: 'object',
      properties: { value: { type: 'string', enum: [...new Set(choices)].slice(0, MAX_OPTIONS) } },
      required: ['value'],
    },
  };
  return {
    tool,
    isLive: () => radios.every((radio) => radio.isConnected),
    run: async (args) => {
      const wanted = String(args.value ?? '').toLowerCase();
      const radio =
        radios.find((candidate) => choiceOf(candidate).toLowerCase() === wanted) ??
        radios.find((candidate) => candidate.value.toLowerCase() === wanted);
      if (!radio)
        return errorResult(`No choice ${quoted(String(args.value), 40)}; the choices: ${choices.join(', ')}.`);
      return actOn(radio, 'check', {}, context, context.handles.of(radio));
    },
  };
}
