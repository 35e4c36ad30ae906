import { Hub, siteOf } from '@tabmcp/hub';
import { BROWSER_LINK_PROTOCOL_VERSION } from '@tabmcp/protocol';
import { browserIdentityReady, browserInfo } from './browser-identity';
import { BrowserLink } from './browser-link';
import { ChromeHubStore } from './chrome-hub-store';
import { chromeTabOpener } from './chrome-tab-opener';
import { ChromeTabTransport } from './chrome-tab-transport';
import { linkUrl, loadConfig } from './config';
import { listenForClearActivity } from './confirm/activity-record';
import { listenToConfirmPage } from './confirm/ask-person';
import { askBeforeConsequences } from './confirm/confirm-gate';
import { reportCrashedTabs } from './crash-watch';
import { DebuggerSessions } from './debugger/debugger-sessions';
import { serveTrustedInput } from './debugger/trusted-input';
import { answerAroundDialogs, startDialogWatch } from './dialogs/dialog-gate';
import { tagTabDocuments } from './document-tags';
import { serveFrames } from './frames';
import { HubCatalogFeed, isCatalogRequest } from './hub-catalog-feed';
import { findKeepers } from './keep-open';
import { handleServerRequest } from './link-commands';
import { PageInjection } from './page-injection';
import { listenToPopup } from './popup-messages';
import { startProxyMode } from './proxy-mode';
import { forwardTabEvents, restoreHub } from './tab-events';
import { workerLog } from './worker-log';

/** The extension's background worker: the hub, its chrome adapters and the browser link. */
const log = workerLog;

const hub = new Hub({
  transport: new ChromeTabTransport(log),
  store: new ChromeHubStore(log),
  opener: chromeTabOpener,
  // Calls by hub name (the `all` view) pass the same gates as the focused view's (link-commands.ts): the
  // person is asked first when the call is consequential, then dialogs are watched while it runs.
  gate: (tabId, toolName, args, call, onWaiting) =>
    askBeforeConsequences(hub, tabId, toolName, args, () => answerAroundDialogs(tabId, toolName, args, call), {
      onWaiting,
    }),
  log,
});
tagTabDocuments(log);
// The hub starts restoring at once (tab-events.ts): content scripts that reconnect find their entries.
const restored = restoreHub(hub);
// Nothing runs in a page until an agent connects (page-injection.ts): its listener is added in this first task.
const injection = new PageInjection({
  siteAccess: (url) => hub.siteAccess(url),
  restored: restored.catch(() => {}),
  connected: (tabId) => hub.tabs().some((tab) => tab.tabId === tabId && tab.connected),
  log,
});
listenToConfirmPage();
listenForClearActivity();
// Read while the hub restores, so the first dial does not wait for it; later dials read it afresh.
let firstConfig: ReturnType<typeof loadConfig> | undefined = loadConfig();
const link = new BrowserLink(async () => {
  await browserIdentityReady;
  const config = await (firstConfig ?? loadConfig());
  firstConfig = undefined;
  return { url: linkUrl(config), token: config.token };
}, log);

link.onopen = () => {
  link.send({
    type: 'hello',
    protocolVersion: BROWSER_LINK_PROTOCOL_VERSION,
    extensionVersion: chrome.runtime.getManifest().version,
    browser: browserInfo(),
    capabilities: hub.capabilities(),
  });
};
const catalog = new HubCatalogFeed(hub, (message) => link.send(message));
link.onstatechange = (state) => {
  if (state === 'closed') catalog.reset();
  injection.linkState('local', state === 'open');
};
link.onrequest = (request) => {
  if (isCatalogRequest(request)) link.send(catalog.answer(request));
  else handleServerRequest(request, hub, (message) => link.send(message));
};

let closedWithBrowser = false;
const reportTab = forwardTabEvents(
  hub,
  (message) => link.send(message),
  // No redial while the browser goes (it would connect the agent to a dying browser); a browser that
  // outlives its windows (macOS) dials again with its next window.
  () => {
    closedWithBrowser = true;
    link.stop();
  },
);
chrome.windows.onCreated.addListener(() => {
  if (!closedWithBrowser) return;
  closedWithBrowser = false;
  link.start();
});
reportCrashedTabs(hub, (message) => link.send(message));
listenToPopup(
  {
    hub,
    linkState: () => (link.isOpen ? 'open' : 'closed'),
    linkProblem: () => link.problem,
    serverUrl: async () => linkUrl(await loadConfig()),
    onSiteChanged: (site) => {
      const tabsOfSite = hub.tabs().filter((tab) => siteOf(tab.url) === site);
      for (const tab of tabsOfSite) reportTab(tab.tabId);
      injection.siteChanged(site, tabsOfSite);
    },
  },
  log,
);

// New link settings from the options page (or forgotten ones) end the link in order and redial.
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && ('port' in changes || 'token' in changes)) link.restart('the link settings changed');
});
// The worker is being unloaded (the extension disabled, updated or the browser closing): say so.
chrome.runtime.onSuspend.addListener(() => link.stop());
// An open WebSocket does not keep an MV3 worker alive; if the worker was stopped anyway, the alarm
// wakes it and the link dials again. It also lets the hub record that its tabs are alive.
chrome.alarms.create('tabmcp-link', { periodInMinutes: 0.5 });
chrome.alarms.onAlarm.addListener(() => {
  link.ensure();
  hub.keepAlive();
  injection.check();
});
// Remote access through a proxy (docs/remote.md), when configured.
const debuggers = new DebuggerSessions(log);
startDialogWatch(debuggers, hub, log);
serveTrustedInput(debuggers, (url) => hub.siteAccess(url), log);
serveFrames({ siteAccess: (url) => hub.siteAccess(url), restored: restored.catch(() => {}), log });
const proxyLink = startProxyMode(hub, debuggers, log);
const proxyStatus = proxyLink.onstatus;
proxyLink.onstatus = (status) => {
  proxyStatus?.(status);
  injection.linkState('proxy', status.state === 'ready');
};

// The server must see the same tools after a worker restart: restore first, then dial.
Promise.all([restored, findKeepers()])
  .catch((error: unknown) => log('restore.failed', { error: String(error) }))
  .finally(() => {
    link.start();
    proxyLink.ensure();
  });
