import type { Logger } from '@tabmcp/protocol';
import { plainTextTokenWarning } from './choose-extension';

export interface ProxyConnectionOptions {
  /** The proxy's base URL (ws:// or wss://); this side dials `<proxyUrl>/mcp`. */
  proxyUrl: string;
  /** JWT for mcp_handshake (the same user as the browser's token), or where to read it at each (re)connect. */
  token: string | (() => string);
  /** Connect to the browser with this name (the extension's "browser name" option). */
  browserName?: string;
  /** Or to the browser with this id from list_extensions. */
  extensionId?: string;
  log?: Logger;
  /** Control methods and quick forwarded calls. */
  requestTimeoutMs?: number;
  maxBackoffMs?: number;
  /** How long one getTabs long poll may wait in the extension. */
  pollWaitMs?: number;
}

export type ResolvedProxyOptions = Required<Omit<ProxyConnectionOptions, 'browserName' | 'extensionId'>> &
  Pick<ProxyConnectionOptions, 'browserName' | 'extensionId'>;

/** The options with their defaults, the URL without trailing slashes; a token that would cross in plain text is logged. */
export function resolveProxyOptions(options: ProxyConnectionOptions): ResolvedProxyOptions {
  const resolved: ResolvedProxyOptions = {
    requestTimeoutMs: 30_000,
    maxBackoffMs: 5_000,
    pollWaitMs: 20_000,
    log: () => {},
    ...options,
    proxyUrl: options.proxyUrl.replace(/\/+$/, ''),
  };
  const insecure = plainTextTokenWarning(resolved.proxyUrl);
  if (insecure) resolved.log('proxy.insecure', { warning: insecure });
  return resolved;
}

/** The token for this (re)connect: read anew each time when given as a function. */
export function currentToken(options: ResolvedProxyOptions): string {
  const { token } = options;
  return typeof token === 'string' ? token : token();
}
