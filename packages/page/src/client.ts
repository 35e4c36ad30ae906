import { DEFAULT_IFRAME_CHANNEL, ErrorCode, ProtocolError, waitUntil, withTimeout } from '@tabmcp/protocol/light';
import { NOTIFICATION_METHODS } from './mcp-dispatch';
import { TabClient } from './tab-client';
import type {
  CallToolResult,
  GetPromptResult,
  JsonObject,
  McpNotificationDetail,
  NotificationKind,
  PromptDescriptor,
  ReadResourceResult,
  ResourceDescriptor,
  ResourceTemplateDescriptor,
  ServerCapabilities,
  ServerInfo,
  ToolDescriptor,
  WindowMcpApi,
} from './types';
import { MCP_NOTIFICATION_EVENT } from './types';

export interface ClientOptions {
  /**
   * Where the provider is. Omitted: `window[namespace]` in this window. A `Window` (`window.parent`,
   * `window.opener`), an `<iframe>` element or `'parent'`: another window, reached over postMessage.
   */
  target?: Window | HTMLIFrameElement | 'parent';
  /** Same-window provider's property name; default `mcp`. */
  namespace?: string;
  /** Cross-window: the origins the provider may have; default the page's own origin. `'*'` must be written out. */
  allowedOrigins?: string[];
  /** Cross-window channel; default MCP-B's `mcp-iframe`. */
  channel?: string;
  /** How long `connect()` waits for a provider to appear or answer. */
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  window?: Window;
}

/** The calls a client makes, whichever way it reaches the provider. */
interface Link {
  info: ServerInfo;
  capabilities: ServerCapabilities;
  request(method: string, params: JsonObject): Promise<unknown>;
  close(): void;
}

const KIND_OF_METHOD = Object.fromEntries(
  Object.entries(NOTIFICATION_METHODS).map(([kind, method]) => [method, kind as NotificationKind]),
);

/**
 * docs/requirements.md#page-sdk's client SDK: connects to a `window.mcp` provider in this window, or to one in a
 * parent or iframe of another origin over postMessage, and offers typed methods with timeouts.
 * Provider notifications are re-dispatched as `mcpNotification` events on the client.
 */
export class McpWindowClient extends EventTarget {
  readonly #options: ClientOptions;
  readonly #win: Window;
  #link: Link | undefined;
  #connecting: Promise<void> | undefined;

  constructor(options: ClientOptions = {}) {
    super();
    this.#options = options;
    this.#win = options.window ?? window;
  }

  get connected(): boolean {
    return this.#link !== undefined;
  }

  connect(): Promise<void> {
    if (this.#connecting) return this.#connecting;
    const attempt: Promise<void> = this.#open().then(
      (link) => {
        // close() ran while this connect was pending: the link it opened is closed, not kept (D24).
        if (this.#connecting !== attempt) {
          link.close();
          throw new ProtocolError(ErrorCode.InternalError, 'McpWindowClient was closed while connecting');
        }
        this.#link = link;
      },
      (error: unknown) => {
        if (this.#connecting === attempt) this.#connecting = undefined;
        throw error;
      },
    );
    this.#connecting = attempt;
    return attempt;
  }

  close(): void {
    this.#link?.close();
    this.#link = undefined;
    this.#connecting = undefined;
  }

  /** Subscribes to provider notifications; returns the unsubscribe function. */
  onNotification(listener: (detail: McpNotificationDetail) => void): () => void {
    const handler = (event: Event) => listener((event as CustomEvent<McpNotificationDetail>).detail);
    this.addEventListener(MCP_NOTIFICATION_EVENT, handler);
    return () => this.removeEventListener(MCP_NOTIFICATION_EVENT, handler);
  }

  async getServerInfo(): Promise<ServerInfo> {
    return { ...this.#connected().info };
  }

  async getCapabilities(): Promise<ServerCapabilities> {
    return structuredClone(this.#connected().capabilities);
  }

  listTools(): Promise<{ tools: ToolDescriptor[] }> {
    return this.#request('tools/list', {}) as Promise<{ tools: ToolDescriptor[] }>;
  }

  /** `callTool('name', args)` as in docs/requirements.md#page-sdk's example, or `callTool({ name, arguments })`. */
  callTool(name: string | { name: string; arguments?: JsonObject }, args: JsonObject = {}): Promise<CallToolResult> {
    const params = typeof name === 'string' ? { name, arguments: args } : { arguments: {}, ...name };
    return this.#request('tools/call', params) as Promise<CallToolResult>;
  }

  async listResources(): Promise<{ resources: ResourceDescriptor[]; resourceTemplates: ResourceTemplateDescriptor[] }> {
    const [listed, templates] = await Promise.all([
      this.#request('resources/list', {}) as Promise<{ resources?: ResourceDescriptor[] }>,
      // Providers without templates (most MCP-B servers) answer "method not found".
      (
        this.#request('resources/templates/list', {}) as Promise<{ resourceTemplates?: ResourceTemplateDescriptor[] }>
      ).catch(() => ({ resourceTemplates: [] })),
    ]);
    return { resources: listed.resources ?? [], resourceTemplates: templates.resourceTemplates ?? [] };
  }

  readResource(uri: string | { uri: string }): Promise<ReadResourceResult> {
    return this.#request(
      'resources/read',
      typeof uri === 'string' ? { uri } : { ...uri },
    ) as Promise<ReadResourceResult>;
  }

  listPrompts(): Promise<{ prompts: PromptDescriptor[] }> {
    return this.#request('prompts/list', {}) as Promise<{ prompts: PromptDescriptor[] }>;
  }

  getPrompt(
    name: string | { name: string; arguments?: Record<string, string> },
    args: Record<string, string> = {},
  ): Promise<GetPromptResult> {
    const params = typeof name === 'string' ? { name, arguments: args } : { arguments: {}, ...name };
    return this.#request('prompts/get', params) as Promise<GetPromptResult>;
  }

  #connected(): Link {
    if (!this.#link) {
      throw new ProtocolError(
        ErrorCode.InternalError,
        'McpWindowClient is not connected: await client.connect() first',
      );
    }
    return this.#link;
  }

  async #request(method: string, params: JsonObject): Promise<unknown> {
    return this.#connected().request(method, params);
  }

  #dispatch(detail: McpNotificationDetail): void {
    this.dispatchEvent(new CustomEvent<McpNotificationDetail>(MCP_NOTIFICATION_EVENT, { detail }));
  }

  async #open(): Promise<Link> {
    const target = this.#options.target;
    if (target === undefined) return this.#openSameWindow();
    const targetWindow =
      target === 'parent' ? this.#win.parent : 'contentWindow' in target ? target.contentWindow : target;
    if (!targetWindow || targetWindow === this.#win) {
      throw new ProtocolError(ErrorCode.InvalidParams, 'McpWindowClient: the target window does not exist');
    }
    return this.#openRemote(targetWindow);
  }

  async #openSameWindow(): Promise<Link> {
    const namespace = this.#options.namespace ?? 'mcp';
    const timeoutMs = this.#options.connectTimeoutMs ?? 3_000;
    const api = await waitForProvider(this.#win, namespace, timeoutMs);
    const requestTimeoutMs = this.#options.requestTimeoutMs ?? 30_000;
    const onNotification = (event: Event) => this.#dispatch((event as CustomEvent<McpNotificationDetail>).detail);
    // Both answers are bounded like every request, and a failed connect leaves no listener behind.
    const bounded = <T>(what: string, pending: Promise<T>, ms = timeoutMs) =>
      withTimeout(pending, {
        timeoutMs: ms,
        onTimeout: () => {
          throw new ProtocolError(ErrorCode.RequestTimeout, `The provider did not answer ${what} within ${ms} ms`);
        },
      });
    api.addEventListener(MCP_NOTIFICATION_EVENT, onNotification);
    let info: Awaited<ReturnType<typeof api.getServerInfo>>;
    let capabilities: Awaited<ReturnType<typeof api.getCapabilities>>;
    try {
      [info, capabilities] = await Promise.all([
        bounded('getServerInfo', api.getServerInfo()),
        bounded('getCapabilities', api.getCapabilities()),
      ]);
    } catch (error) {
      api.removeEventListener(MCP_NOTIFICATION_EVENT, onNotification);
      throw error;
    }
    return {
      info,
      capabilities,
      request: (method, params) => bounded(method, callDirect(api, method, params), requestTimeoutMs),
      close: () => api.removeEventListener(MCP_NOTIFICATION_EVENT, onNotification),
    };
  }

  async #openRemote(target: Window): Promise<Link> {
    const own = this.#win.location.origin;
    const client = new TabClient({
      window: this.#win,
      target,
      allowedOrigins: this.#options.allowedOrigins ?? (own === 'null' ? [] : [own]),
      channel: this.#options.channel ?? DEFAULT_IFRAME_CHANNEL,
      connectTimeoutMs: this.#options.connectTimeoutMs ?? 3_000,
      requestTimeoutMs: this.#options.requestTimeoutMs ?? 30_000,
    });
    client.onnotification = (notification) => {
      const type = KIND_OF_METHOD[notification.method];
      if (!type) return;
      const uri = (notification.params as { uri?: unknown } | undefined)?.uri;
      this.#dispatch(typeof uri === 'string' ? { type, uri } : { type });
    };
    client.onclose = () => {
      this.#link = undefined;
      this.#connecting = undefined;
    };
    try {
      const result = (await client.initialize()) as { serverInfo?: ServerInfo; capabilities?: ServerCapabilities };
      return {
        info: result?.serverInfo ?? { name: 'unknown', version: '0' },
        capabilities: result?.capabilities ?? {},
        request: (method, params) => client.request(method, params),
        close: () => client.close(),
      };
    } catch (error) {
      client.close();
      throw error;
    }
  }
}

/** docs/requirements.md#page-sdk's WindowMcpApi: every method a client may call, and the EventTarget it listens on. */
const PROVIDER_METHODS = [
  'getServerInfo',
  'getCapabilities',
  'listResources',
  'readResource',
  'listTools',
  'callTool',
  'listPrompts',
  'getPrompt',
  'addEventListener',
  'removeEventListener',
] as const;

/** A provider is there once the namespace holds tools; whether it is whole is checked next. */
function looksLikeProvider(value: unknown): value is Record<string, unknown> {
  const record = value as Record<string, unknown> | null;
  return typeof record === 'object' && record !== null && typeof record.listTools === 'function';
}

/** The provider found, whole, or an error naming what it lacks (rather than a TypeError on first use). */
function wholeProvider(found: Record<string, unknown>, namespace: string): WindowMcpApi {
  const missing = PROVIDER_METHODS.filter((method) => typeof found[method] !== 'function');
  if (missing.length === 0) return found as unknown as WindowMcpApi;
  throw new ProtocolError(
    ErrorCode.InvalidRequest,
    `window.${namespace} is not a complete MCP provider: it lacks ${missing.join(', ')}. Create it with new McpWindowProvider(...).exposeOnWindow('${namespace}'), or give it every method of docs/requirements.md#page-sdk's WindowMcpApi.`,
  );
}

/** A page exposes its provider whenever its code runs, with no event to hear: look every 25 ms. */
async function waitForProvider(win: Window, namespace: string, timeoutMs: number): Promise<WindowMcpApi> {
  const found = () => {
    const candidate = (win as unknown as Record<string, unknown>)[namespace];
    return looksLikeProvider(candidate) ? candidate : undefined;
  };
  const provider = await waitUntil<Record<string, unknown>>(
    (done) => {
      const now = found();
      if (now) {
        done(now);
        return undefined;
      }
      const poll = setInterval(() => {
        const later = found();
        if (later) done(later);
      }, 25);
      return () => clearInterval(poll);
    },
    {
      timeoutMs,
      onTimeout: () => {
        throw new ProtocolError(
          ErrorCode.RequestTimeout,
          `No MCP provider found at window.${namespace} within ${timeoutMs} ms: the page must create one (new McpWindowProvider(...).exposeOnWindow('${namespace}'))`,
        );
      },
    },
  );
  return wholeProvider(provider, namespace);
}

async function callDirect(api: WindowMcpApi, method: string, params: JsonObject): Promise<unknown> {
  switch (method) {
    case 'tools/list':
      return api.listTools();
    case 'tools/call':
      return api.callTool(params as { name: string; arguments?: JsonObject });
    case 'resources/list':
      return { resources: (await api.listResources()).resources };
    case 'resources/templates/list':
      return { resourceTemplates: (await api.listResources()).resourceTemplates ?? [] };
    case 'resources/read':
      return api.readResource(params as { uri: string });
    case 'prompts/list':
      return api.listPrompts();
    case 'prompts/get':
      return api.getPrompt(params as { name: string; arguments?: Record<string, string> });
    default:
      throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
}
