/** Where and as whom proxy mode dials; absent while the user has not configured it. */
export interface ProxyConfig {
  /** The proxy's base URL (ws:// or wss://); the extension dials `<proxyUrl>/extension`. */
  proxyUrl: string;
  /** The JWT the proxy checks (proxy-protocol.md `accessToken`). */
  proxyToken: string;
  /** The name MCP clients see in list_extensions and pick the browser by. */
  browserName: string;
}

export const PROXY_CONFIG_KEYS = ['proxyUrl', 'proxyToken', 'browserName'] as const;
export const PROXY_STATUS_KEY = 'proxyStatus';

type Partial = { [K in (typeof PROXY_CONFIG_KEYS)[number]]?: unknown };

/**
 * chrome.storage.local (the options page, or a companion process that updates the token) wins
 * over the `config.json` of a launched copy of the extension, key by key, as for the local link.
 */
export async function loadProxyConfig(defaultName: string): Promise<ProxyConfig | undefined> {
  const bundled: Partial = await fetch(chrome.runtime.getURL('config.json'), { cache: 'no-store' })
    .then((response) => (response.ok ? (response.json() as Promise<Partial>) : {}))
    .catch(() => ({}));
  const stored = (await chrome.storage.local.get([...PROXY_CONFIG_KEYS])) as Partial;
  return proxyConfigFrom({ ...bundled, ...definedOnly(stored) }, defaultName);
}

/** Checks a raw config; a URL that is not ws(s):// counts as not configured. */
export function proxyConfigFrom(raw: Partial, defaultName: string): ProxyConfig | undefined {
  const url = typeof raw.proxyUrl === 'string' ? raw.proxyUrl.trim().replace(/\/+$/, '') : '';
  const token = typeof raw.proxyToken === 'string' ? raw.proxyToken.trim() : '';
  if (!/^wss?:\/\/[^\s/]+/.test(url) || token.length === 0) return undefined;
  const name = typeof raw.browserName === 'string' && raw.browserName.trim() ? raw.browserName.trim() : defaultName;
  return { proxyUrl: url, proxyToken: token, browserName: name.slice(0, 256) };
}

function definedOnly(values: Partial): Partial {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined && value !== ''));
}
