import type { CallToolResult, JsonObject, ToolDescriptor } from '@tabmcp/page';

/**
 * Declarative WebMCP (the draft the WebMCP explainer and `@mcp-b/webmcp-polyfill` follow): a
 * `<form toolname="…" tooldescription="…">` is a tool. Its named controls are the parameters
 * (`toolparamdescription`, else the label, describes each); calling it fills the controls and,
 * with `toolautosubmit`, submits the form. Without it the form is left filled for the user to
 * submit, as the draft asks.
 */
export interface FormTool {
  descriptor: ToolDescriptor;
  run(args: JsonObject): CallToolResult;
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
const SKIPPED_TYPES = new Set(['submit', 'button', 'reset', 'image', 'file']);

function controlsOf(form: HTMLFormElement): Map<string, Control[]> {
  const groups = new Map<string, Control[]>();
  for (const element of Array.from(form.elements)) {
    if (
      !(
        element instanceof HTMLInputElement ||
        element instanceof HTMLSelectElement ||
        element instanceof HTMLTextAreaElement
      )
    )
      continue;
    if (!element.name || element.disabled) continue;
    if (element instanceof HTMLInputElement && SKIPPED_TYPES.has(element.type)) continue;
    if (
      element instanceof HTMLInputElement &&
      element.type === 'hidden' &&
      !element.hasAttribute('toolparamdescription')
    )
      continue;
    const group = groups.get(element.name) ?? [];
    group.push(element);
    groups.set(element.name, group);
  }
  return groups;
}

/** A label's own words, without the text of the controls it wraps (a select's options). */
function labelText(label: HTMLLabelElement): string {
  const copy = label.cloneNode(true) as HTMLElement;
  for (const nested of Array.from(copy.querySelectorAll('input, select, textarea'))) nested.remove();
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function describe(control: Control): string | undefined {
  const text =
    control.getAttribute('toolparamdescription') ||
    Array.from(control.labels ?? [])
      .map(labelText)
      .filter(Boolean)
      .join(' ') ||
    control.getAttribute('aria-description') ||
    control.getAttribute('placeholder');
  return text || undefined;
}

function schemaOf(controls: Control[]): JsonObject {
  const first = controls[0] as Control;
  const description = describe(first);
  const withDescription = (schema: JsonObject) => (description ? { ...schema, description } : schema);
  if (first instanceof HTMLSelectElement) {
    const values = Array.from(first.options)
      .filter((option) => !option.disabled)
      .map((option) => option.value);
    return withDescription(
      first.multiple ? { type: 'array', items: { type: 'string', enum: values } } : { type: 'string', enum: values },
    );
  }
  if (first instanceof HTMLTextAreaElement) return withDescription({ type: 'string' });
  switch (first.type) {
    case 'radio':
      return withDescription({ type: 'string', enum: controls.map((control) => control.value) });
    case 'checkbox':
      return withDescription(
        controls.length > 1
          ? { type: 'array', items: { type: 'string', enum: controls.map((control) => control.value) } }
          : { type: 'boolean' },
      );
    case 'number':
    case 'range': {
      const schema: JsonObject = { type: 'number' };
      if (first.min !== '') schema.minimum = Number(first.min);
      if (first.max !== '') schema.maximum = Number(first.max);
      return withDescription(schema);
    }
    case 'email':
      return withDescription({ type: 'string', format: 'email' });
    case 'url':
      return withDescription({ type: 'string', format: 'uri' });
    case 'date':
      return withDescription({
        type: 'string',
        format: 'date',
        description: `${description ?? ''} (YYYY-MM-DD)`.trim(),
      });
    default: {
      const schema: JsonObject = { type: 'string' };
      if (first.minLength > 0) schema.minLength = first.minLength;
      if (first.maxLength > 0) schema.maxLength = first.maxLength;
      return withDescription(schema);
    }
  }
}

function setValue(control: Control, value: string): void {
  // The native setter, so frameworks that track the value property (React) see the change.
  const prototype = Object.getPrototypeOf(control) as object;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (setter) setter.call(control, value);
  else control.value = value;
}

function fill(controls: Control[], value: unknown): void {
  const first = controls[0] as Control;
  if (first instanceof HTMLInputElement && (first.type === 'radio' || first.type === 'checkbox')) {
    const wanted = Array.isArray(value) ? value.map(String) : [String(value)];
    for (const control of controls as HTMLInputElement[]) {
      control.checked = typeof value === 'boolean' ? value : wanted.includes(control.value);
    }
  } else if (first instanceof HTMLSelectElement && first.multiple) {
    const wanted = Array.isArray(value) ? value.map(String) : [String(value)];
    for (const option of Array.from(first.options)) option.selected = wanted.includes(option.value);
  } else {
    setValue(first, String(value));
  }
  for (const control of controls) {
    control.dispatchEvent(new Event('input', { bubbles: true }));
    control.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

function invalidFields(form: HTMLFormElement): string {
  return Array.from(form.elements)
    .filter((element): element is Control => 'validity' in element && !(element as Control).validity.valid)
    .map((control) => `${control.name || '(unnamed)'}: ${control.validationMessage}`)
    .join('; ');
}

export function findFormTools(root: ParentNode = document): FormTool[] {
  const tools: FormTool[] = [];
  const seen = new Set<string>();
  for (const form of Array.from(root.querySelectorAll<HTMLFormElement>('form[toolname][tooldescription]'))) {
    const name = form.getAttribute('toolname')?.trim() ?? '';
    if (!name || seen.has(name)) continue;
    seen.add(name);
    const groups = controlsOf(form);
    const properties: JsonObject = {};
    const required: string[] = [];
    for (const [field, controls] of groups) {
      properties[field] = schemaOf(controls);
      if (controls.some((control) => control.required)) required.push(field);
    }
    const title = form.getAttribute('tooltitle');
    const autosubmit = form.hasAttribute('toolautosubmit');
    tools.push({
      descriptor: {
        name,
        ...(title ? { title } : {}),
        description: form.getAttribute('tooldescription') ?? '',
        inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) },
      },
      run(args) {
        if (!form.isConnected) throw new Error(`The form of "${name}" is gone from the page`);
        for (const [field, value] of Object.entries(args)) {
          const controls = groups.get(field);
          if (controls) fill(controls, value);
        }
        if (!form.checkValidity()) {
          return {
            content: [{ type: 'text', text: `The form refused the input: ${invalidFields(form)}` }],
            isError: true,
          };
        }
        if (!autosubmit) {
          const submitter = form.querySelector<HTMLElement>(
            'button[type=submit], button:not([type]), input[type=submit]',
          );
          submitter?.focus();
          return { content: [{ type: 'text', text: `Filled the form "${name}"; the user submits it.` }] };
        }
        form.requestSubmit();
        return { content: [{ type: 'text', text: `Filled and submitted the form "${name}".` }] };
      },
    });
  }
  return tools;
}
