import { type Hub, siteOf } from '@tabmcp/hub';
import {
  type ActionFacts,
  type CallToolResult,
  type ClientConfirmation,
  type Confirmation,
  DESCRIBE_CALL,
  DescribedCall,
  errorMessage,
  HANDLE_DIALOG_CALL,
  PERSON_WAIT_MS,
  type PersonWait,
  READING_TOOLS,
} from '@tabmcp/protocol';
import { openDialogOf } from '../dialogs/dialog-gate';
import { recordActivity } from './activity-record';
import { askPerson, type PersonAnswer } from './ask-person';
import { clientAnswer, questionForClient } from './client-questions';
import { type CallFacts, consequenceOf } from './consequence-rules';
import { isHeadless, policyOf, rememberSiteChoice } from './policy-store';

/** A tab answers what a call would act on within this, or the call is not run blind. */
const DESCRIBE_TIMEOUT_MS = 5_000;

type Call = () => Promise<CallToolResult>;

/**
 * The gate every agent call passes before it runs (docs/user-guide.md, "Asking before it matters"):
 * the tab says what the call would act on (a derived tool's control and form, read by the content
 * script; a page tool's annotations; the dialog handle_dialog would accept), the rules say whether
 * that is consequential, and the site's policy says whether to ask the person, run it, or refuse it.
 * The answer says which happened, and every call goes into the record the popup shows.
 */
export async function askBeforeConsequences(
  hub: Hub,
  tabId: number,
  toolName: string,
  args: Record<string, unknown>,
  call: Call,
  via: AskVia = {},
): Promise<CallToolResult> {
  const url = hub.tabs().find((tab) => tab.tabId === tabId)?.url;
  const site = siteOf(url) ?? '';
  const tool = toolName === HANDLE_DIALOG_CALL ? 'handle_dialog' : toolName;
  const policy = await policyOf(site || undefined);
  let facts: CallFacts | undefined;
  try {
    facts = await factsOf(hub, tabId, toolName, args, policy.strict);
  } catch (error) {
    // Under allow nothing would be asked: the call runs as it did before this gate existed.
    if (policy.mode === 'allow') return recorded(call, { site, tool });
    const answer = refusal(
      `tabmcp could not read what ${tool} would act on before running it (${errorMessage(error)}), so nothing ran. Call it again once the page has loaded.`,
    );
    recordActivity({ at: Date.now(), site, tool, answer: 'failed' });
    return answer;
  }
  const reasons = facts ? consequenceOf(facts) : [];
  const what = facts?.kind === 'derived' ? facts.facts.caption : undefined;
  const entry = { site, tool, ...(what ? { what } : {}) };
  if (!reasons.length) return recorded(call, entry);
  if (policy.mode === 'allow')
    return recorded(call, entry, 'allowed by policy', {
      confirmation: `allowed by policy (${policySays(policy.source)}): not asked`,
      reasons,
    });
  if (policy.mode === 'deny') {
    recordActivity({ at: Date.now(), ...entry, answer: 'denied', confirmation: 'denied by policy' });
    return refusal(
      `This site's policy refuses consequential actions (${policySays(policy.source)}), so ${tool} did not run (${reasons.join('; ')}). The user can change this on tabmcp's options page.`,
      { confirmation: 'denied by policy', reasons },
    );
  }
  const request = {
    site,
    url: (url ?? '').slice(0, 2048),
    tool,
    reasons,
    ...(what ? { caption: what } : {}),
    values: facts?.kind === 'derived' ? (facts.facts.values ?? []) : valuesOfArgs(args),
  };
  // A headless browser shows nobody a window: a client that can ask the person (elicitation) asks there.
  if (via.confirmed === undefined && via.askClient && isHeadless())
    return questionForClient(tabId, toolName, args, request);
  const where = via.confirmed ? "in the agent's client (MCP elicitation)" : 'in the browser';
  const answer: PersonAnswer | undefined = via.confirmed
    ? clientAnswer(via.confirmed, tabId, toolName, args)
    : await askPersonSayingSo(request, via.onWaiting);
  if (answer === undefined)
    return refusal(
      `The answer given for ${tool} does not match this call (used already, expired, or for another call), so nothing ran. Call it again.`,
    );
  if (answer === 'once' || answer === 'always') {
    if (answer === 'always' && site) await rememberSiteChoice(site, 'allow');
    return recorded(call, entry, 'confirmed', {
      confirmation: `confirmed by the person ${where}${answer === 'always' ? ', who now allows such actions on this site' : ''}`,
      reasons,
    });
  }
  const confirmation: Confirmation = answer === 'no answer' ? 'no answer' : 'denied by the person';
  recordActivity({ at: Date.now(), ...entry, answer: 'denied', confirmation });
  return refusal(refusalText(answer, tool, reasons, where), { confirmation, reasons });
}

/**
 * How the agent's client may take part: it can ask the person (elicitation), or brings their answer;
 * `onWaiting` tells its server, mid-call, that the call waits for the person in the browser.
 */
export interface AskVia {
  askClient?: boolean | undefined;
  confirmed?: ClientConfirmation | undefined;
  onWaiting?: ((wait: PersonWait) => void) | undefined;
}

/** The prompt, with word to the agent first that its call waits for the person, and until when at most. */
function askPersonSayingSo(
  request: Parameters<typeof askPerson>[0],
  onWaiting: AskVia['onWaiting'],
): Promise<PersonAnswer> {
  const since = Date.now();
  onWaiting?.({ site: request.site, tool: request.tool, since, until: since + PERSON_WAIT_MS });
  return askPerson(request);
}

async function factsOf(
  hub: Hub,
  tabId: number,
  toolName: string,
  args: Record<string, unknown>,
  strict: boolean,
): Promise<CallFacts | undefined> {
  if (toolName === HANDLE_DIALOG_CALL)
    return { kind: 'dialog', dialog: openDialogOf(tabId)?.kind, accept: args.accept === true };
  // A tab behind a dialog runs nothing: the dialog gate answers at once, and its page could not describe.
  if (openDialogOf(tabId)) return undefined;
  const pageTool = { kind: 'page-tool' as const, strict };
  // A tool the page publishes is judged by the annotations the hub already holds: asking the tab
  // would only hear "not derived". Only the reading tools tabmcp adds beside them are described.
  if (publishesOwnTools(hub, tabId) && !isReadingToolName(toolName))
    return { ...pageTool, annotations: annotationsOf(hub, tabId, toolName) };
  const raw = await hub.pageRequest(tabId, DESCRIBE_CALL, { name: toolName, arguments: args }, DESCRIBE_TIMEOUT_MS);
  const described = DescribedCall.safeParse(raw);
  if (!described.success) throw new Error('the tab answered with something that is not a description');
  if (described.data.derived)
    return described.data.facts ? { kind: 'derived', facts: described.data.facts } : undefined;
  return { ...pageTool, annotations: annotationsOf(hub, tabId, toolName) };
}

const annotationsOf = (hub: Hub, tabId: number, toolName: string) =>
  hub.toolsOf(tabId).find((tool) => tool.name === toolName)?.annotations;

/** The tab's tools come from a server of its page (not derived from its DOM alone). */
const publishesOwnTools = (hub: Hub, tabId: number) => {
  const source = hub.tabs().find((tab) => tab.tabId === tabId)?.source;
  return source !== undefined && source !== 'dom';
};

/** A name a reading tool may have (get_page_content, tabmcp_get_page_content, …): those are described. */
const isReadingToolName = (name: string) =>
  READING_TOOLS.some((reading) => name === reading || name === `tabmcp_${reading}`);

async function recorded(
  call: Call,
  entry: { site: string; tool: string; what?: string },
  confirmation?: Confirmation,
  note?: { confirmation: string; reasons: string[] },
): Promise<CallToolResult> {
  try {
    const result = await call();
    recordActivity({
      at: Date.now(),
      ...entry,
      answer: result.isError ? 'failed' : 'done',
      ...(confirmation ? { confirmation } : {}),
    });
    return note ? withNote(result, note) : result;
  } catch (error) {
    recordActivity({ at: Date.now(), ...entry, answer: 'failed', ...(confirmation ? { confirmation } : {}) });
    throw error;
  }
}

function policySays(source: string): string {
  switch (source) {
    case 'site':
      return "the user's choice for this site";
    case 'options':
      return "the user's default on tabmcp's options page";
    case 'agent':
      return "the agent's --confirm";
    default:
      return 'a headless browser, where nobody could be asked';
  }
}

function refusalText(answer: PersonAnswer, tool: string, reasons: string[], where: string): string {
  const why = reasons.join('; ');
  if (answer === 'no answer')
    return `Nobody answered the confirmation in the browser within ${PERSON_WAIT_MS / 1000} s, so ${tool} did not run (${why}); the prompt was withdrawn. Ask the user to watch for tabmcp's prompt, then call again.`;
  if (answer === 'closed')
    return `The user closed tabmcp's confirmation prompt without allowing it, so ${tool} did not run (${why}). Do not retry unless the user asks you to.`;
  return `The user denied this action ${where}, so ${tool} did not run (${why}). Do not retry unless the user asks you to.`;
}

function refusal(text: string, extra: Record<string, unknown> = {}): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify({ refused: text, ...extra, nothingRan: true }) }],
    isError: true,
  };
}

/**
 * The answer with how it was let through: into its JSON line when it is one (what derived tools
 * answer), else as one more line, so an agent reading the text sees it either way.
 */
function withNote(result: CallToolResult, note: { confirmation: string; reasons: string[] }): CallToolResult {
  const [first, ...rest] = result.content ?? [];
  const text = first?.type === 'text' && typeof first.text === 'string' ? first.text : '';
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      return { ...result, content: [{ type: 'text', text: JSON.stringify({ ...parsed, ...note }) }, ...rest] };
    } catch {
      // Not JSON after all: the note goes on a line of its own.
    }
  }
  return { ...result, content: [...(result.content ?? []), { type: 'text', text: JSON.stringify(note) }] };
}

/** A page tool's arguments as the person reads them: the agent's values, bounded. */
function valuesOfArgs(args: Record<string, unknown>): ActionFacts['values'] & object {
  return Object.entries(args)
    .slice(0, 20)
    .map(([name, value]) => ({
      name: name.slice(0, 80),
      value: (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).slice(0, 200),
    }));
}
