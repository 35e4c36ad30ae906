import { type CallToolResult, ErrorCode, ProtocolError } from '@tabmcp/protocol';
import type { BrowserLauncher } from '../core/browser-connection';
import { BrowserSession, type SessionOptions } from '../core/session';
import type { Progress } from '../core/tool-definition';
import type { ProxyBrowserConnection } from './proxy-browser-connection';

/** Proxy mode starts no browser: the browser is on another machine, connected to the proxy. */
class ProxyLauncher implements BrowserLauncher {
  constructor(private readonly connection: ProxyBrowserConnection) {}

  async launch(): Promise<undefined> {
    throw new ProtocolError(
      ErrorCode.ServerError,
      `tabmcp runs in proxy mode (${this.connection.proxyUrl}) and cannot start a browser here. ${this.connection.problem}`,
    );
  }
}

/**
 * The session of proxy mode: the same state machine and tools as with a local browser; when
 * connect_browser finds no browser it also says what the proxy link is missing (the local
 * instructions alone would send the agent to the wrong machine).
 */
export class ProxySession extends BrowserSession {
  readonly #connection: ProxyBrowserConnection;

  constructor(connection: ProxyBrowserConnection, options: Omit<SessionOptions, 'connection' | 'launcher'>) {
    super({ ...options, connection, launcher: new ProxyLauncher(connection) });
    this.#connection = connection;
  }

  override async callTool(name: string, args: Record<string, unknown>, progress?: Progress): Promise<CallToolResult> {
    const result = await super.callTool(name, args, progress);
    if (name !== 'connect_browser' || !result.isError || this.#connection.isUp) return result;
    const note = `Proxy mode (${this.#connection.proxyUrl}): ${this.#connection.problem || 'no browser connected yet'}. tabmcp keeps trying; call connect_browser again once the browser is connected to the proxy.`;
    return { ...result, content: [...result.content, { type: 'text', text: note }] };
  }
}
