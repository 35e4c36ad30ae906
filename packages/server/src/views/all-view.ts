import {
  type BrowserCapabilities,
  CallToolResult,
  errorMessage,
  HUB_TOOL_PREFIX,
  HubToolsResult,
  type Logger,
  PERSON_WAIT_MS,
  type PersonWait,
  type ServerRequest,
  validate,
  withoutDocument,
} from '@tabmcp/protocol';
import type { BrowserConnection } from '../core/browser-connection';
import { ListAnnouncer } from '../core/list-announcer';
import { pageArgumentsError } from '../core/page-call';
import type { PageEvent } from '../core/page-event';
import { isListedPageTool } from '../core/page-tool-names';
import type { PersonAsker } from '../core/person-asker';
import { sayingWhenWaiting } from '../core/person-wait';
import { errorResult, type ListedTool, type Progress } from '../core/tool-definition';
import type { PagePrimitives } from '../mcp/page-resources';
import { HubCatalog } from './hub-catalog';
import type { McpView } from './mcp-view';

/** The session's face that the `all` view builds on. */
export interface SessionView extends McpView, PagePrimitives {
  readonly state: string;
  /** The core tool moves the state machine (its changes are announced once, when it ends). */
  isTransition?(name: string): boolean;
  /** List handle_dialog whenever a tab is focused, not only while an answer's dialog waits. */
  keepDialogToolListed?(): void;
}

/** The link as the `all` view uses it: the session's connection plus requests of its own. */
export interface HubLink extends Pick<BrowserConnection, 'isUp' | 'on'> {
  requestValue(
    message: ServerRequest,
    what: string,
    timeoutMs?: number,
    onWaiting?: (wait: PersonWait) => void,
  ): Promise<unknown>;
}

export interface AllViewOptions {
  /** The hub's wait for a page's answer; unset, the hub's own (10 s, docs/requirements.md#hub). */
  callTimeoutMs?: number;
  log?: Logger;
}

/** Before a browser reported its own: nothing can be cached without one. */
const NO_BROWSER_YET: BrowserCapabilities = { multiTabSupport: true, cacheSupported: false, elicitation: false };

/**
 * The `all` view (docs/requirements.md#founding-decisions, decision 3): the session's tools, plus, once the agent connected,
 * every allowed tab's tools under docs/requirements.md#hub's hub names (website_tool_<domain>_tab<N>_<name>).
 * Calls to those go to the extension's hub, which picks the tab. Schemas pass through whole.
 */
export class AllView implements McpView {
  readonly #session: SessionView;
  readonly #link: HubLink;
  readonly #timeoutMs: number | undefined;
  readonly #log: Logger;
  readonly #hubTools = new HubCatalog();
  #browserCapabilities = NO_BROWSER_YET;
  readonly #announcer: ListAnnouncer;
  ontoolschanged: (() => void) | undefined;

  setPersonAsker(asker: PersonAsker): void {
    this.#session.setPersonAsker?.(asker);
  }

  constructor(session: SessionView, link: HubLink, options: AllViewOptions = {}) {
    this.#session = session;
    this.#link = link;
    this.#timeoutMs = options.callTimeoutMs;
    this.#log = options.log ?? (() => {});
    // The session listens on the link too; it subscribed first, so it hears each event first.
    // Only a link this view watches (listHubTools {watch: true}) carries the hub's changes.
    link.on('event', (event) => {
      if (event.type !== 'hubToolsChanged') return;
      if (event.capabilities) this.#browserCapabilities = event.capabilities;
      this.#hubTools.changed(event);
      this.#announcer.schedule();
    });
    link.on('up', () => void this.#refresh());
    link.on('down', () => this.#hubTools.linkDown());
    // While the link is down the session is DISCONNECTED, which hides the hub tools; the list is
    // kept so a call right after the extension dials in again (worker restart) still finds its tool.
    this.#announcer = new ListAnnouncer(
      () => this.listTools(),
      () => this.ontoolschanged?.(),
    );
    session.ontoolschanged = () => this.#announcer.schedule();
    // Page calls here go by hub name to a tab the hub picks: the session cannot tell which tab's
    // dialog an answer showed, so handle_dialog stays listed (docs/decisions.md, 354).
    session.keepDialogToolListed?.();
    if (link.isUp) void this.#refresh();
  }

  /**
   * docs/requirements.md#hub's `browser` set as the extension's hub last reported it. MCP fixes capabilities at
   * initialize, so a client sees the set of the moment it connected (docs/decisions.md, 39).
   */
  get capabilities() {
    return { experimental: { browser: { ...this.#browserCapabilities } } };
  }

  setAutoFallback(on: boolean): void {
    this.#session.setAutoFallback?.(on);
  }

  // The focused tab's resources and prompts are the same in both views.
  requestFocusedPage(...args: Parameters<PagePrimitives['requestFocusedPage']>) {
    return this.#session.requestFocusedPage(...args);
  }

  focusedPageOrigin(): string | undefined {
    return this.#session.focusedPageOrigin?.();
  }

  get onpageevent(): ((event: PageEvent) => void) | undefined {
    return this.#session.onpageevent;
  }

  set onpageevent(listener: ((event: PageEvent) => void) | undefined) {
    this.#session.onpageevent = listener;
  }

  /**
   * The session's core tools, then every page tool once, under its hub name: the focused tab's
   * tools are among the hub's, so its unprefixed copies are left out.
   */
  listTools(): ListedTool[] {
    const own = this.#session.listTools();
    if (this.#session.state === 'DISCONNECTED') return own;
    const core = own.filter((tool) => !isListedPageTool(tool));
    const taken = new Set(core.map((tool) => tool.name));
    const hub = this.#hubTools.tools().filter((tool) => !taken.has(tool.name)) as ListedTool[];
    return [...core, ...hub];
  }

  /** Routed as listed: hub names to the hub, core tools to the session, page names nowhere (they are listed under hub names). */
  async callTool(name: string, args: Record<string, unknown>, progress?: Progress): Promise<CallToolResult> {
    // A hub name stays callable while the session is still reconnecting (worker restart); page
    // tools never hold hub names (page-tool-names.ts), so only a core tool could take it first.
    const own = this.#session.listTools().find((listed) => listed.name === name);
    const hubName = this.#link.isUp && (!own || isListedPageTool(own)) && name.startsWith(HUB_TOOL_PREFIX);
    const tool = hubName ? this.#hubTools.get(name) : undefined;
    // An unlisted hub name still goes to the hub: a cached tool's domain-only name routes there
    // while an open tab lists the tool under its own name (issue 27 H2).
    if (!hubName) {
      if (own && isListedPageTool(own)) {
        return errorResult(
          `"${name}" is listed under its hub name in this view (website_tool_<domain>_tab<N>_${name}): list the tools again and call that.`,
        );
      }
      const run = () => this.#session.callTool(name, args, progress);
      // The hub's list changes during open_tab too: one notification for the call, not two (issue 27 D9).
      return this.#session.isTransition?.(name) ? this.#announcer.transition(run) : run();
    }
    const refused = tool && pageArgumentsError(name, tool.inputSchema, args);
    if (refused) return refused;
    try {
      const raw = await sayingWhenWaiting(progress ?? (() => {}), (onWaiting) =>
        this.#link.requestValue(
          {
            type: 'callHubTool',
            requestId: '',
            name,
            args,
            ...(this.#timeoutMs ? { timeoutMs: this.#timeoutMs } : {}),
          },
          name,
          linkWaitMs(this.#timeoutMs),
          onWaiting,
        ),
      );
      const checked = validate(CallToolResult, raw, `result of ${name}`);
      if (!checked.ok) throw checked.error;
      // The page's document id is for the focused view's calls (seen-documents.ts); hub names route by domain.
      return withoutDocument(checked.value);
    } catch (error) {
      return errorResult(
        `The page tool "${name}" failed: ${errorMessage(error)}. List the tools again if its tab closed; list_tabs shows the open tabs.`,
      );
    }
  }

  /** Fetches the hub's tool list again; resolves when it arrived or failed (logged). */
  listHubTools(): Promise<void> {
    return this.#refresh();
  }

  /** The whole list, and from then on its changes (hub-catalog.ts puts the two together). */
  #refresh(): Promise<void> {
    this.#hubTools.listAsked();
    return this.#link.requestValue({ type: 'listHubTools', requestId: '', watch: true }, 'listHubTools').then(
      (raw) => {
        const checked = validate(HubToolsResult, raw, 'hub tool list');
        if (checked.ok) {
          this.#browserCapabilities = checked.value.capabilities;
          this.#hubTools.listArrived(checked.value);
          this.#announcer.schedule();
        } else {
          this.#hubTools.listFailed();
          this.#log('all-view.rejected', { reason: checked.error.message });
        }
      },
      (error: unknown) => {
        this.#hubTools.listFailed();
        this.#log('all-view.list-failed', { error: errorMessage(error) });
      },
    );
  }
}

/**
 * The hub may retry a loading tab (3 × 1 s), reopen a cached tool's page (up to 10 s) and re-route
 * once; the link waits for all of that, so only a silent extension trips this timer.
 */
function linkWaitMs(callTimeoutMs: number | undefined): number {
  // The extension may first wait for the person to confirm the call (PERSON_WAIT_MS), then run it.
  return 2 * (callTimeoutMs ?? 10_000) + 15_000 + PERSON_WAIT_MS;
}
