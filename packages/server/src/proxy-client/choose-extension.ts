export interface ListedExtension {
  id: string;
  name: string;
  connected: boolean;
}

/**
 * Which browser to connect to: the one with the given id, else the one with the given name (refused when
 * several share it: one may be an impostor), else the only or first one.
 * Returns why not when none fits, in words an agent can act on.
 */
export function chooseExtension(
  extensions: readonly ListedExtension[],
  wanted: { extensionId?: string; browserName?: string },
): { extension: ListedExtension } | { problem: string } {
  const live = extensions.filter((extension) => extension.connected);
  const names = live.map((extension) => `"${extension.name}"`).join(', ') || 'none';
  if (wanted.extensionId !== undefined) {
    const found = live.find((extension) => extension.id === wanted.extensionId);
    return found
      ? { extension: found }
      : { problem: `No browser with id ${wanted.extensionId} is connected to the proxy (connected: ${names}).` };
  }
  if (wanted.browserName !== undefined) {
    const named = live.filter((extension) => extension.name === wanted.browserName);
    const [found] = named;
    if (named.length > 1) {
      // Picking one would let any holder of a token for this user (the agent's own, say) stand in for the browser.
      const ids = named.map((extension) => extension.id).join(', ');
      return {
        problem: `${named.length} browsers named "${wanted.browserName}" are connected to the proxy (${ids}); refusing to guess. Pass --extension-id with the right one, and if one is not yours, revoke the tokens of this user (docs/remote.md).`,
      };
    }
    return found
      ? { extension: found }
      : { problem: `No browser named "${wanted.browserName}" is connected to the proxy (connected: ${names}).` };
  }
  const [first] = live;
  return first
    ? { extension: first }
    : {
        problem:
          "No browser is connected to the proxy for this token's user: open the tabmcp extension's options in the browser and set the proxy URL and a token of the same user (docs/remote.md).",
      };
}

/** A warning when a token would cross the network in clear (plain ws:// to a host other than this machine). */
export function plainTextTokenWarning(proxyUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(proxyUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'http:') return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)) return undefined;
  return `The proxy URL ${url.protocol}//${url.host} is not encrypted: the token and every page's content cross the network in clear. Use wss://.`;
}
