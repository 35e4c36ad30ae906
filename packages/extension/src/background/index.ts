import { Hub } from '@tabmcp/hub';
import { BROWSER_LINK_PROTOCOL_VERSION } from '@tabmcp/protocol';
import { BrowserLink } from './browser-link';
import { ChromeTabTransport } from './chrome-tab-transport';
import { linkUrl, loadConfig } from './config';
import { handleServerRequest } from './link-commands';
import { browserInfo, toTabInfo } from './tab-info';

/** The extension's background worker: the hub, its chrome adapters and the browser link. */
const log = (event: string, details: Record<string, unknown>) => console.debug('[tabmcp]', event, details);

const hub = new Hub({ transport: new ChromeTabTransport(log), log });
const link = new BrowserLink(async () => ({ url: linkUrl(await loadConfig()) }), log);

link.onopen = () =>
  link.send({
    type: 'hello',
    protocolVersion: BROWSER_LINK_PROTOCOL_VERSION,
    extensionVersion: chrome.runtime.getManifest().version,
    browser: browserInfo(),
  });
link.onrequest = (request) => handleServerRequest(request, hub, (message) => link.send(message));

hub.onToolsChanged((tabId, tools) => link.send({ type: 'toolsChanged', tabId, tools }));
hub.onPageNotification((tabId, method, params) =>
  link.send({
    type: 'pageNotification',
    tabId,
    method: method as 'notifications/resources/updated',
    ...(params ? { params } : {}),
  }),
);

chrome.tabs.onCreated.addListener((tab) => {
  if (tab.id !== undefined) link.send({ type: 'tabCreated', tab: toTabInfo(tab) });
});
// A real navigation ends the content script, whose Port closing clears the tab's tools in the hub;
// same-document navigations (SPA routes) keep them.
chrome.tabs.onUpdated.addListener((_tabId, change, tab) => {
  if (change.url !== undefined || change.title !== undefined || change.status === 'complete') {
    link.send({ type: 'tabUpdated', tab: toTabInfo(tab) });
  }
});
chrome.tabs.onRemoved.addListener((tabId) => {
  hub.removeTab(tabId, `Tab ${tabId} was closed before answering`);
  link.send({ type: 'tabClosed', tabId });
});
chrome.tabs.onActivated.addListener(({ tabId }) => link.send({ type: 'tabFocused', tabId, tools: hub.toolsOf(tabId) }));

// An open WebSocket does not keep an MV3 worker alive; if the worker was stopped anyway, the alarm
// wakes it and the link dials again.
chrome.alarms.create('tabmcp-link', { periodInMinutes: 0.5 });
chrome.alarms.onAlarm.addListener(() => link.ensure());

// Tabs opened before the extension loaded have no content script.
async function injectIntoOpenTabs(): Promise<void> {
  const tabs = await chrome.tabs.query({ url: ['http://*/*', 'https://*/*'] });
  for (const tab of tabs) {
    if (tab.id === undefined) continue;
    const target = { tabId: tab.id };
    await chrome.scripting
      .executeScript({ target, files: ['bridge.js'], world: 'MAIN' })
      .then(() => chrome.scripting.executeScript({ target, files: ['content.js'] }))
      .catch((error: unknown) => log('inject.failed', { tabId: tab.id, error: String(error) }));
  }
}
chrome.runtime.onInstalled.addListener(() => void injectIntoOpenTabs());

link.start();
