/** Where and as whom proxy mode dials; absent while the user has not configured it. */
export interface ProxyConfig {
  /** The proxy's base URL (ws:// or wss://); the extension dials `<proxyUrl>/extension`. */
  proxyUrl: string;
  /** The JWT the proxy checks (docs/requirements.md#remote-proxy `accessToken`). */
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

/**
 * Why a proxy URL cannot be used, or undefined when it can: the token travels in the clear over
 * plain ws://, so that is for a proxy on this machine only (the proxy itself refuses to listen
 * without TLS elsewhere; issue 13, finding 15).
 */
export function proxyUrlProblem(url: string): string | undefined {
  if (!/^wss?:\/\/[^\s/]+/.test(url)) return 'Give a ws:// or wss:// proxy URL.';
  if (url.startsWith('wss://')) return undefined;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return 'Give a ws:// or wss:// proxy URL.';
  }
  const loopback = host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  return loopback
    ? undefined
    : `Plain ws:// would send the token to ${host} unencrypted: use wss:// (ws:// is for a proxy on this machine).`;
}

/** Checks a raw config; a URL that is not ws(s)://, or plain ws:// to another machine, counts as not configured. */
export function proxyConfigFrom(raw: Partial, defaultName: string): ProxyConfig | undefined {
  const url = typeof raw.proxyUrl === 'string' ? raw.proxyUrl.trim().replace(/\/+$/, '') : '';
  const token = typeof raw.proxyToken === 'string' ? raw.proxyToken.trim() : '';
  if (proxyUrlProblem(url) || token.length === 0) return undefined;
  const name = typeof raw.browserName === 'string' && raw.browserName.trim() ? raw.browserName.trim() : defaultName;
  return { proxyUrl: url, proxyToken: token, browserName: name.slice(0, 256) };
}

function definedOnly(values: Partial): Partial {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined && value !== ''));
}

const INSTANCE_KEY = 'proxyInstance';

/**
 * A random key this browser keeps in chrome.storage.local and sends with `authenticate`, so the
 * proxy gives it the same extension id at every reconnect and `--extension-id` keeps finding it.
 */
export async function proxyInstanceKey(): Promise<string> {
  const stored = (await chrome.storage.local.get(INSTANCE_KEY))[INSTANCE_KEY];
  if (typeof stored === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(stored)) return stored;
  const created = crypto.randomUUID().replaceAll('-', '');
  await chrome.storage.local.set({ [INSTANCE_KEY]: created });
  return created;
}
