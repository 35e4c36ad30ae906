import { docsUrl } from '../docs-links';

/**
 * What the core tools answer when a call cannot go through. Each text names the step that gets
 * the agent going again; tests and agents match on them, so change them deliberately.
 */

import { OPENABLE_URLS } from '@tabmcp/protocol';
import type { SessionState } from './tool-session';

const ids = (tabIds: Iterable<number>) => [...tabIds].join(', ') || 'none';
/** A reason that already ends a sentence is not given a second period. */
const sentence = (reason: string) => reason.replace(/[.\s]+$/, '');

// A core tool called in a state that does not offer it (docs/requirements.md, "Tool Availability by State").
export const needsConnectedBrowser = (tool: string) => `${tool} needs a connected browser: call connect_browser first.`;
export const needsOpenTab = (tool: string) => `${tool} needs an open tab: call open_tab first.`;
export const needsFocusedTab = (tool: string) => `${tool} needs a focused tab: call focus_tab first.`;
export const ALREADY_CONNECTED_NO_TABS = 'The browser is already connected. Call list_tabs or open_tab.';
export const ALREADY_CONNECTED_NO_FOCUS = 'The browser is already connected. Call list_tabs, open_tab or focus_tab.';
export const ALREADY_CONNECTED = 'The browser is already connected.';

export const invalidArguments = (tool: string, problems: string[]) =>
  `Invalid arguments for ${tool}: ${problems.join('; ')}`;
export const invalidPageArguments = (tool: string, problems: string[], schema: unknown) =>
  `${invalidArguments(tool, problems)}. Expected input schema: ${JSON.stringify(schema)}`;
export const toolFailed = (tool: string, reason: string, state: SessionState) =>
  `${tool} failed: ${sentence(reason)}. ${state === 'DISCONNECTED' ? BROWSER_WENT_AWAY : SEE_WHERE_THINGS_STAND}`;
const BROWSER_WENT_AWAY = 'The browser is not connected now: call connect_browser.';
const SEE_WHERE_THINGS_STAND = 'Call list_tabs to see where things stand.';

// connect_browser
export const NO_BROWSER_FOUND = 'No browser found';
export const NO_BROWSER_INSTRUCTIONS = `No browser with the tabmcp extension is connected to this server. Either call connect_browser with launch=true (tabmcp starts a fresh Chromium with its extension, already paired), or have the user pair their own Chrome: load the extension, run \`npx -y tabmcp pair\` and paste the port and token it prints into the extension's options page (${docsUrl('docs/user-guide.md#install-the-extension-in-your-chrome')}).`;
export const LAUNCH_DISABLED =
  'Launching is disabled in this tabmcp server. Open Chrome or Chromium with the tabmcp extension yourself, then call connect_browser with launch=false.';
export const extensionSilentAfterLaunch = (timeoutMs: number, refused?: string) =>
  `Chromium started but the tabmcp extension did not connect within ${timeoutMs} ms.${refused ? ` ${refused}` : ''} See ${docsUrl('docs/troubleshooting.md#chromium-started-but-the-extension-did-not-connect')}.`;

// open_tab, focus_tab, close_tab
export const invalidUrl = (url: string) => `Invalid URL "${url}": give an absolute URL such as https://example.com`;
export const refusedUrl = (url: string) =>
  `Refusing to open "${url}": only ${OPENABLE_URLS} can be opened, never the browser's own pages. Give such a URL to open_tab.`;
export const tabClosedWhileOpening = (tabId: number, url: string, open: Iterable<number>) =>
  `Tab ${tabId} opened ${url} but closed before open_tab could answer (the page may close itself). Open tabs: ${ids(open)}. Call list_tabs.`;
export const noSuchTab = (tabId: number, open: Iterable<number>) =>
  `No tab with id ${tabId}. Open tabs: ${ids(open)}. Call list_tabs.`;
export const tabGone = (tabId: number, open: Iterable<number>) =>
  `Tab ${tabId} is gone from the browser. Open tabs: ${ids(open)}. Call list_tabs.`;
export const nothingToClose = (tabId: number | null) => `No tab with id ${tabId}. Call list_tabs to see the open tabs.`;

// Page tools, called by their exposed names or through call_page_tool.
export const unknownTool = (tool: string, state: SessionState) => `Unknown tool "${tool}". ${UNKNOWN_TOOL_NEXT[state]}`;
/** The next step after an unknown name, by state: only steps that state offers. */
const UNKNOWN_TOOL_NEXT: Record<SessionState, string> = {
  DISCONNECTED: 'No browser is connected: call connect_browser first, then list the tools again.',
  CONNECTED_NO_TABS: 'No tab is open: call open_tab first, then list the tools again.',
  CONNECTED_NO_FOCUS: 'No tab is focused: call focus_tab or open_tab first, then list the tools again.',
  TAB_FOCUSED: 'The focused tab does not offer it (its tools may have changed): list the tools again.',
};
export const NO_FOCUSED_TAB = 'No tab is focused: call focus_tab or open_tab first.';
export const noSuchPageTool = (tool: string, offered: string[]) =>
  `The focused tab has no tool "${tool}". Its tools: ${offered.join(', ') || 'none'}. Call list_page_tools.`;
export const pageToolFailed = (tool: string, tabId: number, reason: string, hint: string) =>
  `The page tool "${tool}" in tab ${tabId} failed: ${reason}. ${hint}`;
export const LINK_DROPPED_HINT =
  'The link to the browser dropped (its extension worker stopped or the browser closed); tabmcp reconnects by itself. If the call had reached the page it may have run: once list_tabs answers again (or after connect_browser), check the page before calling it again.';
export const FAULTY_TOOL_HINT =
  "Calling it again will not help: the site's tool is faulty. Read the page with get_page_content instead, if the tab offers it.";
/** Only for a call that never reached the page (it was still loading): repeating it is safe. */
export const PAGE_NOT_READY_HINT =
  'The call did not reach the page (it was still loading); call it again in a moment, or call list_tabs.';
/** The page's own tool failed: its error says why, and only the page knows whether anything ran. */
export const PAGE_ERROR_HINT = "Read the page's error above; call list_tabs to see where things stand.";
export const TAB_GONE_HINT = 'The tab is gone; call list_tabs and focus_tab to pick another.';
