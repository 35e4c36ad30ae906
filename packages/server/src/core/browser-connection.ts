import type {
  BrowserCapabilities,
  BrowserInfo,
  CallToolResult,
  OpenTabResult,
  PageMethod,
  PersonWait,
  TabInfo,
  Tool,
} from '@tabmcp/protocol';
import type { PersonAsker } from './person-asker';

/** What the extension reports without being asked (docs/requirements.md#local-server's event messages). */
export type BrowserEvent =
  | { type: 'tabCreated'; tab: TabInfo }
  | { type: 'tabUpdated'; tab: TabInfo }
  | { type: 'tabClosed'; tabId: number }
  | { type: 'tabFocused'; tabId: number; tools: Tool[] }
  | { type: 'toolsChanged'; tabId: number; tools: Tool[] }
  | { type: 'pageNotification'; tabId: number; method: string; params?: Record<string, unknown> }
  /** What changed in the hub's `all` view list (hub names); only a link that watches it gets it. */
  | {
      type: 'hubToolsChanged';
      revision: number;
      changed: Tool[];
      removed: string[];
      capabilities?: BrowserCapabilities;
    };

/**
 * The session core's view of the browser link. An adapter implements it over the WebSocket;
 * every method answers once, with a timeout, and rejects at once when the link drops.
 */
export interface BrowserConnection {
  readonly isUp: boolean;
  waitUntilUp(timeoutMs: number): Promise<boolean>;
  /** Why the browser cannot be reached at all now (a foreign program on the port), if so. */
  linkProblem?(): string | undefined;
  /** Why an extension that dialled in lately was turned away (not paired, wrong token…), if so. */
  pairingProblem?(): string | undefined;
  connect(): Promise<{ browser: BrowserInfo; tabs: TabInfo[] }>;
  openTab(url: string, focus: boolean, waitForToolsMs: number): Promise<OpenTabResult>;
  focusTab(tabId: number): Promise<{ tab: TabInfo }>;
  closeTab(tabId: number): Promise<{ closed: true; tabId: number }>;
  /** `onWaiting`: the extension's word, mid-call, that the call waits for the person to confirm it. */
  callTool(
    tabId: number,
    toolName: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    onWaiting?: (wait: PersonWait) => void,
  ): Promise<CallToolResult>;
  /** The agent's client, when it can ask the person to confirm an action (MCP elicitation). */
  personAsker?: PersonAsker | undefined;
  /** A resources/prompts request to a tab's page; the caller checks the result's shape. */
  pageRequest(tabId: number, method: PageMethod, params?: Record<string, unknown>): Promise<unknown>;
  /** Several parts of the server listen (the session, the `all` view); the result unsubscribes. */
  on<K extends keyof LinkEvents>(type: K, listener: LinkEvents[K]): () => void;
}

/** What a browser link reports: an extension event, the link coming up, the link going down (and why). */
export interface LinkEvents {
  event: (event: BrowserEvent) => void;
  up: () => void;
  down: (reason: string) => void;
}

/** Starts a browser with the extension; throws a ProtocolError whose message tells how to install one. */
export interface BrowserLauncher {
  /** Resolves once the browser process runs; undefined when none was started (one already runs). */
  launch(request?: LaunchRequest): Promise<LaunchedBrowser | undefined>;
}

export interface LaunchedBrowser {
  /**
   * Settles with why the browser process ended (its exit code or signal, its last output, the path
   * of its kept log) if it ends; connect_browser answers with it instead of waiting out its timeout.
   */
  exited: Promise<string>;
}

export interface LaunchRequest {
  /**
   * When the link to the extension last dropped (performance.now()). A browser this launcher
   * started before then may be dying: the link drops a little before its process is reaped.
   */
  linkDroppedAt?: number;
}
