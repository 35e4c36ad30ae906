import { DEFAULT_BROWSER_LINK_PORT } from '@tabmcp/protocol';

export interface ExtensionConfig {
  port: number;
  token: string | undefined;
}

/**
 * Where the browser link dials. `chrome.storage.local` (set from the options page) wins over the
 * `config.json` that `tabmcp --launch` writes into its copy of the extension.
 */
export async function loadConfig(): Promise<ExtensionConfig> {
  const bundled: Partial<ExtensionConfig> = await fetch(chrome.runtime.getURL('config.json'))
    .then((response) => (response.ok ? (response.json() as Promise<Partial<ExtensionConfig>>) : {}))
    .catch(() => ({}));
  const stored = (await chrome.storage.local.get(['port', 'token'])) as Partial<ExtensionConfig>;
  const port = Number(stored.port ?? bundled.port ?? DEFAULT_BROWSER_LINK_PORT);
  const token = stored.token ?? bundled.token;
  return { port: Number.isInteger(port) && port > 0 && port < 65536 ? port : DEFAULT_BROWSER_LINK_PORT, token };
}

/** The token is not part of it: the link proves it both ways instead (protocol/link-auth.ts). */
export function linkUrl(config: Pick<ExtensionConfig, 'port'>): string {
  return `ws://127.0.0.1:${config.port}/`;
}
