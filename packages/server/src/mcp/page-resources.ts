import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  GetPromptRequestSchema,
  GetPromptResultSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  McpError,
  ErrorCode as McpErrorCode,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, type PageMethod } from '@tabmcp/protocol';
import type { z } from 'zod';
import type { PageEvent } from '../core/page-event';
import { markPrompt, markPromptList, markResourceList, markResourceTemplates } from './page-marks';

/** The session's side of the MCP face of page resources and prompts. */
export interface PagePrimitives {
  /** A resources/prompts request to the focused tab's page; undefined when no tab is focused. */
  requestFocusedPage(method: PageMethod, params?: Record<string, unknown>): Promise<unknown> | undefined;
  /** The origin of the focused page, which every text it supplies is marked with. */
  focusedPageOrigin?(): string | undefined;
  onpageevent: ((event: PageEvent) => void) | undefined;
}

export const PAGE_CAPABILITIES = {
  resources: { listChanged: true, subscribe: true },
  prompts: { listChanged: true },
};

/** Page-written descriptions and prompt messages carry their origin (page-marks.ts). */
function mark<T>(method: PageMethod, result: T, origin: string): T {
  const entry = result as Record<string, unknown>;
  switch (method) {
    case 'resources/list':
      return markResourceList(entry, origin) as T;
    case 'resources/templates/list':
      return markResourceTemplates(entry, origin) as T;
    case 'prompts/list':
      return markPromptList(entry, origin) as T;
    case 'prompts/get':
      return markPrompt(entry, origin) as T;
    default:
      return result;
  }
}

export function hasPagePrimitives(view: object): view is PagePrimitives {
  return typeof (view as Partial<PagePrimitives>).requestFocusedPage === 'function' && 'onpageevent' in view;
}

const NO_FOCUS = 'No tab is focused: call focus_tab or open_tab first, then read its resources or prompts.';

/**
 * The resources and prompts of the focused tab's page (mcp-window.md), as MCP resources and
 * prompts of tabmcp. Lists are empty without a focused tab or when the page has none; reads and
 * gets say what to do instead. Every page answer is checked against the MCP SDK's own schema of
 * that result before it reaches the client: the page is untrusted.
 */
export function servePagePrimitives(server: Server, pages: PagePrimitives): void {
  const subscribed = new Set<string>();

  const ask = async <T extends z.ZodType>(
    method: PageMethod,
    params: Record<string, unknown> | undefined,
    schema: T,
  ): Promise<z.infer<T>> => {
    const pending = pages.requestFocusedPage(method, params);
    if (!pending) throw new McpError(McpErrorCode.InvalidRequest, NO_FOCUS);
    let raw: unknown;
    try {
      raw = await pending;
    } catch (error) {
      throw new McpError(
        McpErrorCode.InvalidRequest,
        `The focused page could not answer ${method}: ${errorMessage(error)}`,
      );
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      throw new McpError(McpErrorCode.InternalError, `The focused page answered ${method} with a malformed result`);
    }
    return mark(method, parsed.data, pages.focusedPageOrigin?.() ?? 'the focused page');
  };

  // A page without resources or prompts (most MCP-B pages) simply has an empty list.
  const list = <T extends z.ZodType>(method: PageMethod, schema: T, empty: z.infer<T>): Promise<z.infer<T>> =>
    ask(method, undefined, schema).catch(() => empty);

  server.setRequestHandler(ListResourcesRequestSchema, () =>
    list('resources/list', ListResourcesResultSchema, { resources: [] }),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () =>
    list('resources/templates/list', ListResourceTemplatesResultSchema, { resourceTemplates: [] }),
  );
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    ask('resources/read', { uri: request.params.uri }, ReadResourceResultSchema),
  );
  server.setRequestHandler(ListPromptsRequestSchema, () =>
    list('prompts/list', ListPromptsResultSchema, { prompts: [] }),
  );
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    ask(
      'prompts/get',
      { name: request.params.name, ...(request.params.arguments ? { arguments: request.params.arguments } : {}) },
      GetPromptResultSchema,
    ),
  );
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });

  pages.onpageevent = (event) => {
    const sent = (promise: Promise<void>) => promise.catch(() => {});
    if (event.type === 'focus') {
      // Another page: its resources and prompts replace the previous page's.
      sent(server.sendResourceListChanged());
      sent(server.sendPromptListChanged());
      return;
    }
    if (event.method === 'notifications/resources/list_changed') sent(server.sendResourceListChanged());
    else if (event.method === 'notifications/prompts/list_changed') sent(server.sendPromptListChanged());
    else if (event.method === 'notifications/resources/updated') {
      const uri = event.params?.uri;
      if (typeof uri === 'string' && subscribed.has(uri)) sent(server.sendResourceUpdated({ uri }));
    }
  };
}
