// zod/mini, not classic: the content script and the background bundle this file (docs/architecture.md,
// "zod in the extension").
import * as z from 'zod/mini';

/**
 * What the person says about consequential actions on a site (docs/user-guide.md, "Asking before it
 * matters"): `ask` shows them the action first, `allow` runs it and says so in the answer, `deny`
 * refuses it. Actions that are not consequential always run.
 */
export const ConfirmMode = z.enum(['ask', 'allow', 'deny']);
export type ConfirmMode = z.infer<typeof ConfirmMode>;

/**
 * The request by which the background asks a tab what a derived tool's call would act on, before it
 * runs (a `browser/pageRequest` method). The content script answers it itself, never the page.
 */
export const DESCRIBE_CALL = 'tabmcp/describeCall';

/**
 * How long a call waits for the person to answer the prompt. Under the 60 s a stock MCP client
 * waits for an answer, so the agent hears "nobody answered" from tabmcp, not a timeout of its own.
 */
export const PERSON_WAIT_MS = 45_000;

/**
 * A call that waits for the person (the browser's prompt is open), said mid-call so the agent hears
 * it before the answer: which site and tool, since when, and the latest the answer can come (since +
 * PERSON_WAIT_MS). Sent on the browser link as `waitingForPerson` and through a proxy as
 * WAITING_FOR_PERSON_NOTIFICATION; the server turns it into MCP progress (docs/user-guide.md, "Asking before it matters").
 */
export const PersonWait = z.object({
  site: z.string().check(z.maxLength(253)),
  tool: z.string().check(z.maxLength(256)),
  /** Epoch milliseconds. */
  since: z.int().check(z.nonnegative()),
  until: z.int().check(z.nonnegative()),
});
export type PersonWait = z.infer<typeof PersonWait>;

/**
 * The tools tabmcp derives from a page beside the page's own (get_page_content, open_link; renamed
 * `tabmcp_…` when the page already uses the name). Every other tool of a page that publishes tools is
 * its own: the confirmation gate judges those by their annotations, without asking the tab.
 */
export const READING_TOOLS = ['get_page_content', 'open_link'] as const;

const Text = (max: number) => z.string().check(z.maxLength(max));

/** A value the call would send: a field's name and the value, masked for secrets (passwords, card numbers). */
export const SentValue = z.object({ name: Text(80), value: Text(200) });
export type SentValue = z.infer<typeof SentValue>;

/**
 * What a derived tool's call would do, read from the page before anything happens: the control's
 * visible caption (its accessible name), and of the form it submits the facts a person's browser
 * would act on (method, where it posts, password and card fields). Page text in it is the page's own
 * and is marked wherever it is shown.
 */
export const ActionFacts = z.object({
  /** click, submit (a form, by its button or Enter), upload, fill, or other (reading, scrolling, hovering). */
  action: z.enum(['click', 'submit', 'upload', 'fill', 'other']),
  /** The control's accessible name as a person reads it, e.g. "Pay now". */
  caption: z.optional(Text(200)),
  /** Its role: button, link, textbox, … */
  role: z.optional(Text(40)),
  form: z.optional(
    z.object({
      method: z.enum(['get', 'post', 'dialog']),
      /** The origin the form is sent to, when it is not the page's own. */
      crossOrigin: z.optional(Text(300)),
      hasPassword: z.boolean(),
      /** The `autocomplete="cc-…"` tokens of its fields (cc-number, cc-csc, …). */
      cardFields: z.array(Text(40)).check(z.maxLength(20)),
      /** Its title or heading, e.g. "Checkout". */
      title: z.optional(Text(200)),
    }),
  ),
  /** What would be sent or typed, at most 20 fields. */
  values: z.optional(z.array(SentValue).check(z.maxLength(20))),
});
export type ActionFacts = z.infer<typeof ActionFacts>;

/** The content script's answer to DESCRIBE_CALL: whose tool it is, and for a derived tool what it acts on. */
export const DescribedCall = z.object({
  /** The tool is derived by tabmcp from the page; false for a tool the page publishes itself. */
  derived: z.boolean(),
  facts: z.optional(ActionFacts),
});
export type DescribedCall = z.infer<typeof DescribedCall>;

/** What the confirm page shows the person (confirm.html asks the background for it by the prompt's id). */
export const ConfirmRequest = z.object({
  site: Text(253),
  url: Text(2048),
  tool: Text(256),
  /** What tabmcp read as consequential, in its own words. */
  reasons: z.array(Text(300)).check(z.maxLength(10)),
  /** The control's visible caption and the values sent: the page's text, shown as such. */
  caption: z.optional(Text(200)),
  values: z.array(SentValue).check(z.maxLength(20)),
});
export type ConfirmRequest = z.infer<typeof ConfirmRequest>;

export const ConfirmAnswer = z.enum(['once', 'always', 'deny']);
export type ConfirmAnswer = z.infer<typeof ConfirmAnswer>;

/** confirm.html → background (chrome.runtime.sendMessage); the background takes them from its own pages only. */
export const ConfirmPageMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('tabmcp/confirm-get'), id: z.string().check(z.maxLength(64)) }),
  z.object({ type: z.literal('tabmcp/confirm-answer'), id: z.string().check(z.maxLength(64)), answer: ConfirmAnswer }),
]);
export type ConfirmPageMessage = z.infer<typeof ConfirmPageMessage>;

/**
 * Where an answer carries the question for the agent's client (`_meta` of a callTool result): the
 * server asks the person through MCP elicitation and calls again with the answer and this token.
 */
export const CLIENT_CONFIRM_META = 'tabmcp/confirm';
export const ClientQuestion = z.object({ token: Text(64), request: ConfirmRequest });
export type ClientQuestion = z.infer<typeof ClientQuestion>;
export const ClientConfirmation = z.object({ token: Text(64), answer: ConfirmAnswer });
export type ClientConfirmation = z.infer<typeof ClientConfirmation>;
