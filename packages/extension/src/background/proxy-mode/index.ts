import type { Hub } from '@tabmcp/hub';
import { KEEPALIVE_INTERVAL_MS, type Logger } from '@tabmcp/protocol';
import { browserInfo } from '../browser-identity';
import type { DebuggerSessions } from '../debugger/debugger-sessions';
import { interactionMethods } from './interaction-methods';
import { methodRunner } from './method-table';
import { loadProxyConfig, PROXY_CONFIG_KEYS, PROXY_STATUS_KEY } from './proxy-config';
import { ProxyLink } from './proxy-link';
import { ScreenshotTaker } from './screenshot';
import { withSiteDecisions } from './site-guard';
import { tabMethods } from './tab-methods';
import { TabWatch } from './tab-watch';

const ALARM = 'tabmcp-proxy';

/**
 * Proxy mode (docs/remote.md): when a proxy URL and token are configured, the browser also serves
 * remote MCP clients through a docs/requirements.md#remote-proxy relay, beside the local link. Listeners are added
 * now (an MV3 worker must add them in its first task); the caller dials with `ensure()`.
 */
export function startProxyMode(hub: Hub, debuggers: DebuggerSessions, log: Logger): ProxyLink {
  const watch = new TabWatch(hub);
  const run = methodRunner(
    withSiteDecisions(hub, {
      ...tabMethods(hub, watch),
      ...interactionMethods(debuggers, new ScreenshotTaker()),
    }),
  );
  const { name, version } = browserInfo();
  const link = new ProxyLink(() => loadProxyConfig(`${name} ${version.split('.')[0]}`), run, log);
  link.onstatus = (status) => void chrome.storage.local.set({ [PROXY_STATUS_KEY]: status }).catch(() => {});

  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && PROXY_CONFIG_KEYS.some((key) => key in changes)) link.restart('the proxy settings changed');
  });
  // The link is passive, so no message of its own keeps the MV3 worker alive while no client polls;
  // an extension API call every 20 s does, and the alarm redials after a worker stop anyway.
  setInterval(() => {
    if (link.status.state !== 'off') void chrome.runtime.getPlatformInfo();
  }, KEEPALIVE_INTERVAL_MS);
  chrome.alarms.create(ALARM, { periodInMinutes: 0.5 });
  chrome.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM) link.ensure();
  });
  return link;
}
