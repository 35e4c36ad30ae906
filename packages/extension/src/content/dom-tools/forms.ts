import type { Tool } from '@tabmcp/protocol';
import { composedContains, composedQueryAll, isTag } from './composed-tree';
import { type DomTool, errorResult, type ToolContext } from './dom-tool';
import { checkedState, isTextField, isTypedInput, roleOf } from './elements';
import { fillText, selectOption, setChecked } from './input';
import { clean, isVisible, labelOf, type NameRegistry, slug } from './text';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
/** Controls the form's `elements` do not list: ARIA checkboxes and switches, contenteditable fields. */
const CUSTOM_CONTROLS =
  '[role=checkbox]:not(input), [role=switch]:not(input), [contenteditable=""], [contenteditable=true], [contenteditable=plaintext-only]';

interface Field {
  key: string;
  /** The elements it sets; the tool is stale once one leaves the form. */
  controls: Element[];
  isText: boolean;
  schema: Record<string, unknown>;
  required: boolean;
  /** Sets the value on the page; returns a problem to report, or undefined. */
  /** Sets the control; a problem in words, or undefined. */
  apply(value: unknown): string | undefined | Promise<string | undefined>;
}

const SKIPPED_TYPES = new Set(['hidden', 'submit', 'button', 'reset', 'image', 'file']);
/** Submit captions too vague to name a tool on their own. */
const GENERIC_CAPTIONS = new Set(['submit', 'go', 'ok', 'send', 'save', 'continue', 'next', 'search', 'apply', 'done']);
const MAX_FIELDS = 60;
const MAX_OPTIONS = 100;

/**
 * One tool per visible form that has a submit button or two fields or more: typed fields from its
 * controls, labels and required marks; running it submits. A form with no submit button and one
 * text field is a text field to fill and submit with Enter (fields.ts).
 */
export function formTools(
  doc: Document,
  names: NameRegistry,
  context: ToolContext,
  excluded: (form: HTMLFormElement) => boolean,
): DomTool[] {
  return composedQueryAll<HTMLFormElement>(doc, 'form')
    .filter((form) => !excluded(form) && isVisible(form))
    .flatMap((form) => {
      const fields = fieldsOf(form);
      const submitter = submitterOf(form);
      if (!hasFormTool(form, fields.length, submitter)) return [];
      const caption = submitter ? labelOf(submitter) : '';
      const title = formTitle(form);
      const declared = form.getAttribute('toolname');
      const base =
        slug(declared ?? '') ||
        (caption && !GENERIC_CAPTIONS.has(caption.toLowerCase()) ? slug(caption) : '') ||
        // "Search" in a form titled "Search mail" is search_mail, not search_search_mail.
        (title.toLowerCase().startsWith((caption || 'submit').toLowerCase())
          ? slug(title)
          : slug(`${caption || 'submit'} ${title}`)) ||
        'submit_form';
      const name = names.claim(base);
      const required = fields.filter((field) => field.required).map((field) => field.key);
      const tool: Tool = {
        name,
        description: clean(
          form.getAttribute('tooldescription') ??
            `Fill in and submit the form${title ? ` "${title}"` : ''}${caption ? ` (its "${caption}" button)` : ''}. Fields you leave out keep their current value.`,
          300,
        ),
        inputSchema: {
          type: 'object',
          properties: Object.fromEntries(fields.map((field) => [field.key, field.schema])),
          ...(required.length ? { required } : {}),
        },
        annotations: { destructiveHint: false },
      };
      return [
        {
          tool,
          // A re-render that replaced a field makes the tool stale: it is derived again, never filling a detached input.
          isLive: () =>
            form.isConnected &&
            fields.every((field) => field.controls.every((control) => composedContains(form, control))),
          run: (args) => submit(form, submitter, fields, args, name, context),
          subject: (args) => ({ element: submitter ?? form, action: 'submit', values: args }),
        },
      ];
    });
}

/** Whether a form gets a tool of its own (else its one text field gets a fill_ tool). */
export function formGetsTool(form: HTMLFormElement): boolean {
  return isVisible(form) && hasFormTool(form, fieldsOf(form).length, submitterOf(form));
}

function hasFormTool(form: HTMLFormElement, fieldCount: number, submitter: HTMLElement | undefined): boolean {
  if (fieldCount === 0) return false;
  if (submitter || fieldCount >= 2) return true;
  const only = fieldsOf(form)[0];
  return only !== undefined && !only.isText;
}

async function submit(
  form: HTMLFormElement,
  submitter: HTMLElement | undefined,
  fields: Field[],
  args: Record<string, unknown>,
  name: string,
  context: ToolContext,
) {
  const problems: string[] = [];
  // One field after the other, as a person fills a form: a switch may take a turn of the page.
  for (const field of fields) {
    if (!(field.key in args)) continue;
    const problem = await field.apply(args[field.key]);
    if (problem !== undefined) problems.push(problem);
  }
  if (problems.length > 0) return errorResult(`${name}: ${problems.join('; ')}`);
  if (!form.checkValidity()) {
    const invalid = [...form.elements]
      .filter((element): element is Control => isControl(element) && !element.validity.valid)
      .map((element) => `${labelOf(element) || element.name}: ${element.validationMessage}`);
    return errorResult(`The page refused the form: ${invalid.join('; ')}. Fix these fields and call ${name} again.`);
  }
  // Whether the page handles the submit itself (and stays) or lets the browser navigate.
  let prevented = false;
  let fired = false;
  const probe = (event: Event) => {
    if (event.target !== form) return;
    fired = true;
    prevented = event.defaultPrevented;
  };
  window.addEventListener('submit', probe);
  try {
    return await context.perform(
      `submitted the form${submitter ? ` with its ${JSON.stringify(labelOf(submitter))} button` : ''}`,
      () => form.requestSubmit(isTag(submitter, 'button') || isTag(submitter, 'input') ? submitter : null),
      {
        // A submit the page cancelled is not submitted: the page may say "Sent!" all the same.
        extra: () =>
          prevented
            ? { submitted: false, note: 'The page cancelled the submission and handled it itself; see changes.' }
            : { submitted: fired },
        keepWatching: () => prevented,
        readback: () => (fired ? undefined : 'the form did not submit (no submit event)'),
      },
    );
  } finally {
    window.removeEventListener('submit', probe);
  }
}

function isControl(element: Element): element is Control {
  return isTag(element, 'input') || isTag(element, 'select') || isTag(element, 'textarea');
}

function submitterOf(form: HTMLFormElement): HTMLElement | undefined {
  const candidates = [...form.querySelectorAll<HTMLElement>('button, input[type=submit], input[type=image]')];
  const outside = form.id
    ? [
        ...(form.getRootNode() as Document | ShadowRoot).querySelectorAll<HTMLElement>(
          `[form="${CSS.escape(form.id)}"]`,
        ),
      ]
    : [];
  return [...candidates, ...outside].find(
    (element) =>
      isVisible(element) &&
      ((isTag(element, 'button') && element.type === 'submit') ||
        (isTag(element, 'input') && (element.type === 'submit' || element.type === 'image'))),
  );
}

function formTitle(form: HTMLFormElement): string {
  const own =
    form.getAttribute('aria-label') ??
    form.getAttribute('title') ??
    form.querySelector(':scope > fieldset:only-child > legend')?.textContent;
  if (own?.trim()) return clean(own);
  const heading = form.querySelector('h1,h2,h3,h4') ?? precedingHeading(form);
  if (heading?.textContent?.trim()) return clean(heading.textContent);
  return clean(form.getAttribute('name') ?? form.id ?? '');
}

function precedingHeading(element: Element): Element | undefined {
  let node: Element | null = element;
  for (let depth = 0; node && depth < 3; depth++, node = node.parentElement) {
    let sibling = node.previousElementSibling;
    while (sibling) {
      if (/^H[1-6]$/.test(sibling.tagName)) return sibling;
      sibling = sibling.previousElementSibling;
    }
  }
  return undefined;
}

function fieldsOf(form: HTMLFormElement): Field[] {
  const fields = nativeFieldsOf(form);
  const keys = new Set(fields.map((field) => field.key));
  for (const element of form.querySelectorAll(CUSTOM_CONTROLS)) {
    if (fields.length >= MAX_FIELDS) break;
    if (!isVisible(element) || element.parentElement?.closest('[contenteditable]')) continue;
    const label = labelOf(element);
    const key = uniqueKey(keys, element.id, label);
    fields.push(isTextField(element) ? editable(element, key, label) : switchField(element, key, label));
  }
  return fields;
}

function nativeFieldsOf(form: HTMLFormElement): Field[] {
  const controls = [...form.elements].filter(
    (element): element is Control =>
      isControl(element) &&
      !element.disabled &&
      !(isTag(element, 'input') && SKIPPED_TYPES.has(element.type)) &&
      (isVisible(element) || element.type === 'radio' || element.type === 'checkbox'),
  );
  const keys = new Set<string>();
  const fields: Field[] = [];
  const grouped = new Set<string>();
  for (const control of controls) {
    if (fields.length >= MAX_FIELDS) break;
    if (isTag(control, 'input') && (control.type === 'radio' || control.type === 'checkbox') && control.name) {
      const group = controls.filter(
        (other): other is HTMLInputElement =>
          isTag(other, 'input') && other.type === control.type && other.name === control.name,
      );
      if (group.length > 1 || control.type === 'radio') {
        if (grouped.has(`${control.type}:${control.name}`)) continue;
        grouped.add(`${control.type}:${control.name}`);
        fields.push(choiceGroup(group, uniqueKey(keys, control.name, groupLabel(group))));
        continue;
      }
    }
    const label = labelOf(control);
    fields.push(single(control, uniqueKey(keys, control.name || control.id, label), label));
  }
  return fields;
}

function uniqueKey(keys: Set<string>, raw: string, label: string): string {
  // A readable name attribute ("from", "departDate") is what the page itself uses; else the label.
  const fromName = /^[A-Za-z][A-Za-z0-9_]{0,40}$/.test(raw) ? raw : slug(raw, 40);
  let key = fromName || slug(label, 40) || 'field';
  for (let n = 2; keys.has(key); n++) key = `${fromName || slug(label, 40) || 'field'}_${n}`;
  keys.add(key);
  return key;
}

function groupLabel(group: HTMLInputElement[]): string {
  const fieldset = group[0]?.closest('fieldset');
  const legend = fieldset?.querySelector('legend')?.textContent;
  return clean(legend ?? group[0]?.name ?? '');
}

export function describe(label: string, control: Element): string | undefined {
  const placeholder = clean(control.getAttribute('placeholder'));
  // A placeholder that already reads "e.g. SFO" must not become "e.g. e.g. SFO".
  const example =
    placeholder && placeholder !== label
      ? /^(e\.g\.|eg\b|ex\b|ex\.|for example)/i.test(placeholder)
        ? placeholder
        : `e.g. ${placeholder}`
      : '';
  const parts = [label, example].filter(Boolean);
  return parts.length ? parts.join(' — ') : undefined;
}

/** An ARIA checkbox or switch in a form: a boolean set by clicking it, as a person would. */
function switchField(element: Element, key: string, label: string): Field {
  return {
    key,
    controls: [element],
    isText: false,
    required: element.getAttribute('aria-required') === 'true',
    schema: {
      type: 'boolean',
      ...(label ? { description: label } : {}),
      ...(checkedState(element) === true ? { default: true } : {}),
    },
    apply: async (value) =>
      (await setChecked(element, Boolean(value))) ? undefined : `${key}: the page did not take the change`,
  };
}

function editable(element: Element, key: string, label: string): Field {
  return {
    key,
    controls: [element],
    isText: true,
    required: element.getAttribute('aria-required') === 'true',
    schema: { type: 'string', ...(label ? { description: label } : {}) },
    apply: (value) => {
      fillText(element, value === null || value === undefined ? '' : String(value));
      return undefined;
    },
  };
}

function single(control: Control, key: string, label: string): Field {
  const description = describe(label, control);
  const base: Record<string, unknown> = description ? { description } : {};
  const required = control.required;
  if (isTag(control, 'select')) {
    const options = [...control.options].filter((option) => !option.disabled).slice(0, MAX_OPTIONS);
    const values = options.map((option) => option.value);
    const captions = options.filter((option) => clean(option.text) !== option.value);
    const choices = captions.length
      ? ` Options: ${options.map((option) => `${option.value} = ${clean(option.text, 40)}`).join('; ')}`
      : '';
    const schema = control.multiple
      ? { type: 'array', items: { type: 'string', enum: values } }
      : { type: 'string', enum: values };
    return {
      key,
      controls: [control],
      isText: false,
      required,
      schema: {
        ...schema,
        ...base,
        ...(choices ? { description: clean(`${description ?? ''}.${choices}`, 1000) } : {}),
      },
      apply: (value) => {
        const wanted = (Array.isArray(value) ? value : [value]).map(String);
        const unknown = wanted.filter((item) => !values.includes(item));
        if (unknown.length) return `${key}: ${unknown.join(', ')} is not one of ${values.join(', ')}`;
        if (!control.multiple && wanted[0] !== undefined) {
          selectOption(control, wanted[0]);
          return undefined;
        }
        for (const option of control.options) option.selected = wanted.includes(option.value);
        fire(control);
        return undefined;
      },
    };
  }
  if (isTag(control, 'input') && control.type === 'checkbox') {
    return {
      key,
      controls: [control],
      isText: false,
      required,
      schema: { type: 'boolean', ...base, ...(control.checked ? { default: true } : {}) },
      apply: (value) => {
        if (control.checked !== Boolean(value)) control.click();
        return control.checked === Boolean(value) ? undefined : `${key}: the page did not take the change`;
      },
    };
  }
  const numeric = isTag(control, 'input') && (control.type === 'number' || control.type === 'range');
  const schema: Record<string, unknown> = { type: numeric ? 'number' : 'string', ...base };
  if (isTag(control, 'input')) {
    const format = { date: 'date', 'datetime-local': 'date-time', email: 'email', url: 'uri', time: 'time' }[
      control.type
    ];
    if (format) schema.format = format;
    if (numeric && control.min !== '') schema.minimum = Number(control.min);
    if (numeric && control.max !== '') schema.maximum = Number(control.max);
    if (control.type === 'password')
      schema.description = `${description ?? 'Password'} (a secret: only with the user's consent)`;
  }
  if (control.maxLength > 0) schema.maxLength = control.maxLength;
  const initial = control.getAttribute('value') ?? (isTag(control, 'textarea') ? control.defaultValue : '');
  if (initial) schema.default = numeric ? Number(initial) : initial;
  return {
    key,
    controls: [control],
    isText: roleOf(control) === 'textbox' || isTypedInput(control),
    required,
    schema,
    apply: (value) => {
      const wanted = value === null || value === undefined ? '' : String(value);
      const held = fillText(control, wanted);
      // Read back: a field that refuses or reshapes the text must not be submitted as if it took it.
      return held === wanted || numeric ? undefined : `${key}: the page kept ${JSON.stringify(held.slice(0, 80))}`;
    },
  };
}

function choiceGroup(group: HTMLInputElement[], key: string): Field {
  const values = group.map((input) => input.value);
  const captions = group.map((input) => `${input.value} = ${labelOf(input) || input.value}`).join('; ');
  const label = groupLabel(group);
  const description = clean(`${label ? `${label}. ` : ''}Options: ${captions}`, 1000);
  const radio = group[0]?.type === 'radio';
  return {
    key,
    controls: group,
    isText: false,
    required: group.some((input) => input.required),
    schema: radio
      ? { type: 'string', enum: values, description }
      : { type: 'array', items: { type: 'string', enum: values }, description },
    apply: (value) => {
      const wanted = (Array.isArray(value) ? value : [value]).map(String);
      const unknown = wanted.filter((item) => !values.includes(item));
      if (unknown.length) return `${key}: ${unknown.join(', ')} is not one of ${values.join(', ')}`;
      for (const input of group) if (input.checked !== wanted.includes(input.value)) input.click();
      return undefined;
    },
  };
}

function fire(control: Control): void {
  control.dispatchEvent(new Event('input', { bubbles: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}
