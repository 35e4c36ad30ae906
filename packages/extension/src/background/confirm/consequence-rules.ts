import type { ActionFacts, Tool } from '@tabmcp/protocol';
import { CONSEQUENTIAL_WORDS } from './consequence-words';

/** A call as the rules see it: facts read before it runs, never the page's own claims about itself. */
export type CallFacts =
  /** A derived tool (content/dom-tools): what its control and form are. */
  | { kind: 'derived'; facts: ActionFacts }
  /** A tool the page publishes, with the annotations it declares; `strict`: the site's policy wants readOnlyHint. */
  | { kind: 'page-tool'; annotations: Tool['annotations'] | undefined; strict: boolean }
  /** handle_dialog on the tab's open dialog. */
  | { kind: 'dialog'; dialog: 'alert' | 'confirm' | 'prompt' | 'beforeunload' | undefined; accept: boolean };

/**
 * Why a call is consequential, one short reason each (shown to the person and in the agent's
 * answer); none when it is not. Each rule is a fact of the browser's own: the words of a caption
 * a person reads, `autocomplete="cc-…"`, a password field, where a form posts, an upload.
 */
export function consequenceOf(call: CallFacts): string[] {
  if (call.kind === 'dialog') return call.accept && call.dialog === 'confirm' ? ['accepts a confirm dialog'] : [];
  if (call.kind === 'page-tool') {
    if (call.annotations?.destructiveHint === true) return ['the page marks this tool destructive'];
    if (call.strict && call.annotations?.readOnlyHint !== true)
      return ['the page does not mark this tool read-only, and this site asks for that'];
    return [];
  }
  const { facts } = call;
  const reasons: string[] = [];
  if (facts.action === 'upload') reasons.push('uploads a file from this computer');
  if (facts.action === 'click' || facts.action === 'submit') {
    const kinds = captionKinds(facts.caption ?? '');
    if (kinds.length) reasons.push(`its caption reads as ${kinds.join(' and ')}`);
  }
  const form = facts.form;
  if (form && facts.action === 'submit') {
    if (form.cardFields.length) reasons.push(`the form has payment card fields (${form.cardFields.join(', ')})`);
    if (form.hasPassword) reasons.push('the form sends a password');
    if (form.crossOrigin && form.method === 'post')
      reasons.push(`the form posts to another site (${form.crossOrigin})`);
    // A submit button's caption is often generic ("Continue"): the form's title says what it is.
    if (!reasons.length && form.title) {
      const kinds = captionKinds(form.title);
      if (kinds.length) reasons.push(`the form's title reads as ${kinds.join(' and ')}`);
    }
  }
  return reasons;
}

/** The kinds of consequential words a caption holds (payment, deletion, …), in the word list's order. */
export function captionKinds(caption: string): string[] {
  const words = ` ${wordsOf(caption)} `;
  return Object.entries(CONSEQUENTIAL_WORDS)
    .filter(([, list]) => list.some((phrase) => words.includes(` ${wordsOf(phrase)} `)))
    .map(([kind]) => kind);
}

/** Lower case, letters and digits only, single spaces: "Pay €20 now!" → "pay 20 now". */
function wordsOf(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
