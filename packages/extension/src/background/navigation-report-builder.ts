import { type CallToolResult, cleanPageLine, type SiteAccess } from '@tabmcp/protocol';

/**
 * Opens the block that says where a tab went after a call (docs/dom-tools.md, "After a navigation").
 * Only tabmcp writes it; the same opening in anything a page wrote is defused (REPORT_LOOKALIKE).
 */
export const REPORT_MARKER = '[tabmcp report: the tab loaded another page; its url and title are written by that page]';
/** `[tabmcp` however spaced or cased: what a page would write to pass a block of its own off as the report. */
const REPORT_LOOKALIKE = /\[(\s*)(tabmcp)/gi;
const HAS_REPORT_LOOKALIKE = /\[\s*tabmcp/i;
const MAX_URL = 2_048;
const MAX_TITLE = 1_024;
const NOT_ALLOWED_NOTE =
  'The user has not allowed this site yet: its tools reach agents once they allow it (extension popup).';

/** What tabmcp itself learnt about where the tab went. Nothing else ever enters the report. */
export interface NewPageFacts {
  navigating?: boolean;
  /** The load failed: the browser's error, and the URL it was for. */
  navigated?: false;
  loadError?: string;
  note?: string;
  url?: string;
  title?: string;
  tools?: string[];
}

export interface ReportContext {
  /**
   * The answer came from tabmcp's own derived tools (the tab's tools have source `dom`, which only
   * the content script sets): its one JSON object is tabmcp's, so the report's fields join it.
   * Any other answer is the page's and stays apart, untouched but for defused look-alikes.
   */
  answeredByTabmcp: boolean;
  /** Another page arrived (or is loading): what the action changed on the page it left is dropped. */
  leftThePage?: boolean;
  /** The user's decision for the new page's site (hub site policy). */
  siteAccess(url: string): SiteAccess;
}

/**
 * The answer with the report of where the tab went: built only from tabmcp's own fields (issue 26:
 * a page tool answering with one JSON object used to get its fields merged into tabmcp's report, and
 * a site not allowed passed its title raw). Pure: the caller gathers the facts.
 */
export function withNavigationReport(
  result: CallToolResult,
  facts: NewPageFacts,
  context: ReportContext,
): CallToolResult {
  const report = reportFields(facts, context);
  const [only, ...others] = result.content;
  const derived =
    context.answeredByTabmcp && others.length === 0 && only?.type === 'text'
      ? parseObject((only as { text: string }).text)
      : undefined;
  if (derived) {
    const { navigating: _replaced, ...kept } = derived;
    const rest = context.leftThePage ? withoutChanges(kept) : kept;
    return { ...result, content: [{ type: 'text', text: defuse(JSON.stringify({ ...rest, ...report })) }] };
  }
  const answer = withoutReportLookalikes(result);
  return {
    ...answer,
    content: [...answer.content, { type: 'text', text: `${REPORT_MARKER} ${JSON.stringify(report)}` }],
  };
}

/**
 * The answer of a call whose navigation never committed (aborted, failed before a response, still
 * waiting): the tab did not leave the page, so a derived action's own `navigating` is taken out
 * (issue 38: an aborted navigation answered `navigating: true`). A page's own answer is left as it is.
 */
export function withoutNavigation(result: CallToolResult, answeredByTabmcp: boolean): CallToolResult {
  const [only, ...others] = result.content;
  const derived =
    answeredByTabmcp && others.length === 0 && only?.type === 'text'
      ? parseObject((only as { text: string }).text)
      : undefined;
  if (!derived || !('navigating' in derived)) return withoutReportLookalikes(result);
  const { navigating: _dropped, ...kept } = derived;
  return { ...result, content: [{ type: 'text', text: defuse(JSON.stringify(kept)) }] };
}

/** A page's answer with every look-alike of the report's opening defused (`[tabmcp` → `(tabmcp`). */
export function withoutReportLookalikes(result: CallToolResult): CallToolResult {
  if (!result.content.some((block) => block.type === 'text' && HAS_REPORT_LOOKALIKE.test(textOf(block)))) return result;
  return {
    ...result,
    content: result.content.map((block) =>
      block.type === 'text' ? { ...block, text: defuse(textOf(block)) } : block,
    ) as CallToolResult['content'],
  };
}

/** Only the known fields, each of its type; the page's title and URL one clean line, marked when not allowed. */
function reportFields(facts: NewPageFacts, context: ReportContext): NewPageFacts {
  const report: NewPageFacts = {};
  if (facts.navigating === true) report.navigating = true;
  if (facts.navigated === false) report.navigated = false;
  if (typeof facts.loadError === 'string') report.loadError = cleanPageLine(facts.loadError).slice(0, 200);
  const rawUrl = typeof facts.url === 'string' ? facts.url : undefined;
  const url = rawUrl === undefined ? undefined : defuse(cleanPageLine(rawUrl)).slice(0, MAX_URL);
  const allowed = rawUrl !== undefined && context.siteAccess(rawUrl) === 'allowed';
  if (url !== undefined) report.url = url;
  if (typeof facts.title === 'string') {
    const title = defuse(cleanPageLine(facts.title)).slice(0, MAX_TITLE);
    report.title = allowed ? title : `[page title from ${originOf(url)}, site not allowed yet] ${title}`;
  }
  if (url !== undefined && !allowed) report.note = NOT_ALLOWED_NOTE;
  else {
    if (Array.isArray(facts.tools)) report.tools = facts.tools.filter((name) => typeof name === 'string');
    if (typeof facts.note === 'string') report.note = facts.note;
  }
  return report;
}

/** An answer without what the action changed on the page the tab has left. */
function withoutChanges(answer: Record<string, unknown>): Record<string, unknown> {
  const { changes: _changes, removed: _removed, messages: _messages, counts: _counts, tools: _tools, ...rest } = answer;
  return rest;
}

function defuse(text: string): string {
  return text.replace(REPORT_LOOKALIKE, '($1$2');
}

function textOf(block: CallToolResult['content'][number]): string {
  return (block as { text?: unknown }).text === undefined ? '' : String((block as { text: unknown }).text);
}

function originOf(url: string | undefined): string {
  try {
    const origin = new URL(url ?? '').origin;
    return origin === 'null' ? 'an opaque origin' : origin;
  } catch {
    return 'an unknown page';
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
