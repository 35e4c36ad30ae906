import { PROXY_STATUS_KEY, proxyUrlProblem } from '../background/proxy-mode/proxy-config';
import type { ProxyLinkStatus } from '../background/proxy-mode/proxy-link';

/**
 * The "Remote proxy" section of the options page: proxy URL, token and browser name go to
 * chrome.storage.local; the background reconnects as soon as they change and reports its state
 * under `proxyStatus`, shown here.
 */
const form = document.getElementById('proxy-form') as HTMLFormElement;
const urlInput = document.getElementById('proxy-url') as HTMLInputElement;
const tokenInput = document.getElementById('proxy-token') as HTMLInputElement;
const nameInput = document.getElementById('browser-name') as HTMLInputElement;
const statusLine = document.getElementById('proxy-status') as HTMLParagraphElement;
const off = document.getElementById('proxy-off') as HTMLButtonElement;

async function load(): Promise<void> {
  const stored = (await chrome.storage.local.get(['proxyUrl', 'proxyToken', 'browserName', PROXY_STATUS_KEY])) as {
    proxyUrl?: string;
    proxyToken?: string;
    browserName?: string;
    proxyStatus?: ProxyLinkStatus;
  };
  urlInput.value = stored.proxyUrl ?? '';
  tokenInput.value = stored.proxyToken ?? '';
  nameInput.value = stored.browserName ?? '';
  showStatus(stored.proxyStatus);
}

function showStatus(status: ProxyLinkStatus | undefined): void {
  const state = status?.state ?? 'off';
  const lines: Record<ProxyLinkStatus['state'], string> = {
    off: 'Off: no proxy configured.',
    connecting: `Connecting to ${status?.proxyUrl}…`,
    authenticating: `Authenticating with ${status?.proxyUrl}…`,
    ready: `Connected to ${status?.proxyUrl} as "${status?.browserName}" (${status?.peers ?? 0} MCP client(s)).`,
    closed: `Not connected to ${status?.proxyUrl}; retrying.`,
  };
  statusLine.textContent = [lines[state], status?.detail].filter(Boolean).join(' ');
  statusLine.className = state === 'ready' && !status?.detail ? 'ok' : state === 'off' ? '' : 'bad';
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const proxyUrl = urlInput.value.trim().replace(/\/+$/, '');
  const proxyToken = tokenInput.value.trim();
  const problem =
    proxyUrlProblem(proxyUrl) ??
    (proxyToken.split('.').length !== 3 ? 'Give the whole token (a JWT: three parts with dots).' : undefined);
  if (problem) {
    statusLine.textContent = problem;
    statusLine.className = 'bad';
    return;
  }
  const browserName = nameInput.value.trim();
  void chrome.storage.local.set({ proxyUrl, proxyToken, ...(browserName ? { browserName } : {}) });
  if (!browserName) void chrome.storage.local.remove('browserName');
});

off.addEventListener('click', () => {
  void chrome.storage.local.remove(['proxyUrl', 'proxyToken', 'browserName']).then(load);
});

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && PROXY_STATUS_KEY in changes)
    showStatus(changes[PROXY_STATUS_KEY]?.newValue as ProxyLinkStatus | undefined);
});

void load();
