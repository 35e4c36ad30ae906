import type { ActionFacts, SentValue } from '@tabmcp/protocol';
import { isTag } from './dom-tools/composed-tree';
import type { ActionSubject } from './dom-tools/dom-tool';
import { roleOf } from './dom-tools/elements';
import { clean, labelOf } from './dom-tools/text';

const MAX_VALUES = 20;
/** Values never shown whole, even to the person: passwords and card numbers. */
const SECRET_AUTOCOMPLETE = /^cc-(number|csc)$/;

/**
 * What a derived tool's call would do, read from the page before it runs (docs/user-guide.md,
 * "Asking before it matters"): the control's caption as a person reads it, and of the form it
 * would submit the method, where it posts, its password and card fields, and the values it sends.
 * The background decides from these (background/confirm/consequence-rules.ts).
 */
export function factsOf(subject: ActionSubject): ActionFacts {
  const { element } = subject;
  const action = actionOf(subject);
  const form = element ? formOf(element) : undefined;
  const submitter = form && element && isSubmitter(element) ? element : form ? defaultSubmitter(form) : undefined;
  const captioned = element && !isTag(element, 'form') && action !== 'submit' ? element : (submitter ?? element);
  const caption = captioned ? labelOf(captioned) : clean(subject.caption, 200);
  const values = sentValues(subject, action === 'submit' ? form : undefined);
  return {
    action,
    ...(caption ? { caption: clean(caption, 200) } : {}),
    ...(element ? { role: clean(roleOf(element), 40) } : {}),
    ...(form && action === 'submit' ? { form: formFacts(form, submitter) } : {}),
    ...(values.length ? { values } : {}),
  };
}

/** An item's action as its tool's enum wrote it (`click "Delete"`): the control it clicks has that caption. */
export function itemActionSubject(action: unknown): ActionSubject | undefined {
  const match = /^(click|open|fill|select|check|uncheck) ?"?(.*?)"?$/.exec(String(action ?? ''));
  if (!match) return undefined;
  return { action: match[1] === 'open' ? 'click' : String(match[1]), caption: match[2] ?? '' };
}

function actionOf(subject: ActionSubject): ActionFacts['action'] {
  const { element, action } = subject;
  const inForm = element !== undefined && formOf(element) !== undefined;
  switch (action) {
    case 'submit':
      return 'submit';
    case 'click':
    case 'dblclick':
      return element && inForm && isSubmitter(element) ? 'submit' : 'click';
    case 'fill':
      return subject.submit && inForm ? 'submit' : 'fill';
    case 'press':
      return subject.submit && inForm ? 'submit' : 'other';
    case 'upload':
      return 'upload';
    default:
      return 'other';
  }
}

function formOf(element: Element): HTMLFormElement | undefined {
  if (isTag(element, 'form')) return element;
  const owner = (element as HTMLInputElement).form;
  return owner ?? element.closest('form') ?? undefined;
}

/** A control whose click submits its form: a submit button, or an image input. */
function isSubmitter(element: Element): boolean {
  if (isTag(element, 'button')) return element.type === 'submit';
  if (isTag(element, 'input')) return element.type === 'submit' || element.type === 'image';
  return false;
}

/** The button Enter submits a form with: its first submit button. */
function defaultSubmitter(form: HTMLFormElement): Element | undefined {
  return [...form.elements].find(isSubmitter);
}

function formFacts(form: HTMLFormElement, submitter: Element | undefined): NonNullable<ActionFacts['form']> {
  const button = submitter as HTMLButtonElement | undefined;
  // A submit button's own formmethod and formaction decide over the form's.
  const method = (button?.hasAttribute('formmethod') ? button.formMethod : form.method) as 'get' | 'post' | 'dialog';
  const target = button?.hasAttribute('formaction') ? button.formAction : form.action;
  const controls = [...form.elements];
  const cardFields = [
    ...new Set(controls.flatMap((control) => autocompleteTokens(control).filter((token) => token.startsWith('cc-')))),
  ];
  const title =
    form.getAttribute('aria-label') ??
    form.getAttribute('title') ??
    form.querySelector('h1,h2,h3,h4,legend')?.textContent;
  return {
    method: method === 'post' || method === 'dialog' ? method : 'get',
    ...(crossOrigin(target) ? { crossOrigin: clean(crossOrigin(target), 300) } : {}),
    hasPassword: controls.some((control) => isTag(control, 'input') && control.type === 'password'),
    cardFields: cardFields.slice(0, 20).map((token) => clean(token, 40)),
    ...(title?.trim() ? { title: clean(title, 200) } : {}),
  };
}

function autocompleteTokens(control: Element): string[] {
  return (control.getAttribute('autocomplete') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}

/** The origin a form goes to when it is not this page's: another site gets what is typed. */
function crossOrigin(target: string): string {
  try {
    const origin = new URL(target, location.href).origin;
    return origin === location.origin ? '' : origin;
  } catch {
    return '';
  }
}

/**
 * What would be sent: a form's named fields as they are, with what the call fills in over them; for
 * a field or an upload, the value given. Secrets are masked: the person sees that a password goes,
 * not the password.
 */
function sentValues(subject: ActionSubject, form: HTMLFormElement | undefined): SentValue[] {
  const values = new Map<string, string>();
  const secret = new Set<string>();
  for (const control of form ? [...form.elements] : []) {
    const field = control as HTMLInputElement;
    if (!field.name || isSubmitter(control) || field.type === 'hidden' || field.type === 'file') continue;
    if ((field.type === 'checkbox' || field.type === 'radio') && !field.checked) continue;
    if (field.type === 'password' || autocompleteTokens(control).some((token) => SECRET_AUTOCOMPLETE.test(token)))
      secret.add(field.name);
    values.set(field.name, String(field.value ?? ''));
  }
  for (const [name, value] of Object.entries(subject.values ?? {}))
    if (value !== undefined) values.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  return [...values]
    .slice(0, MAX_VALUES)
    .map(([name, value]) => ({ name: clean(name, 80), value: secret.has(name) ? masked(value) : clean(value, 200) }));
}

/** A secret as a person recognizes it without it being shown: its length, and a card's last four digits. */
function masked(value: string): string {
  if (!value) return '(empty)';
  const digits = value.replace(/\D/g, '');
  return digits.length >= 12 ? `•••• ${digits.slice(-4)}` : '•'.repeat(Math.min(value.length, 12));
}
