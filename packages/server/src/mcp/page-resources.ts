import {
  isSpecType,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type SpecTypes,
} from '@modelcontextprotocol/server';
import type { PageMethod } from '@tabmcp/protocol';
import type { PageEvent } from '../core/page-event';
import { pageFailure, resourceNotFound, unknownPrompt } from './page-errors';
import {
  markPrompt,
  markPromptList,
  markResourceContents,
  markResourceList,
  markResourceTemplates,
} from './page-marks';

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
    case 'resources/read':
      return markResourceContents(entry, origin) as T;
    default:
      return result;
  }
}

export function hasPagePrimitives(view: object): view is PagePrimitives {
  return typeof (view as Partial<PagePrimitives>).requestFocusedPage === 'function' && 'onpageevent' in view;
}

const NO_FOCUS = 'No tab is focused: call focus_tab or open_tab first, then read its resources or prompts.';

/**
 * The resources and prompts of the focused tab's page (docs/requirements.md#page-sdk), as MCP resources and
 * prompts of tabmcp. Lists are empty without a focused tab or when the page has none; reads and
 * gets say what to do instead. Every page answer is checked against the MCP SDK's own schema of
 * that result before it reaches the client: the page is untrusted.
 */
export function servePagePrimitives(server: Server, pages: PagePrimitives): void {
  const subscribed = new Set<string>();

  type Checked =
    | 'ListResourcesResult'
    | 'ListResourceTemplatesResult'
    | 'ReadResourceResult'
    | 'ListPromptsResult'
    | 'GetPromptResult';
  /** `notFound`: the method's own error for "no page has it", for no focused tab and the page's own refusal. */
  const ask = async <T extends Checked>(
    method: PageMethod,
    params: Record<string, unknown> | undefined,
    type: T,
    notFound: (reason: string) => ProtocolError = (reason) =>
      new ProtocolError(ProtocolErrorCode.InvalidParams, reason),
  ): Promise<SpecTypes[T]> => {
    const pending = pages.requestFocusedPage(method, params);
    if (!pending) throw notFound(NO_FOCUS);
    let raw: unknown;
    try {
      raw = await pending;
    } catch (error) {
      throw pageFailure(method, error, notFound);
    }
    if (!isSpecType[type](raw)) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `The focused page answered ${method} with a malformed result`,
      );
    }
    return mark(method, raw as SpecTypes[T], pages.focusedPageOrigin?.() ?? 'the focused page');
  };

  // A page without resources or prompts (most MCP-B pages) simply has an empty list.
  const list = <T extends Checked>(method: PageMethod, type: T, empty: SpecTypes[T]): Promise<SpecTypes[T]> =>
    ask(method, undefined, type).catch(() => empty);

  server.setRequestHandler('resources/list', () => list('resources/list', 'ListResourcesResult', { resources: [] }));
  server.setRequestHandler('resources/templates/list', () =>
    list('resources/templates/list', 'ListResourceTemplatesResult', { resourceTemplates: [] }),
  );
  // Without a focused tab no page holds the resource: the spec's not-found answer, with the fix in the message.
  server.setRequestHandler('resources/read', (request) => {
    const { uri } = request.params;
    return ask('resources/read', { uri }, 'ReadResourceResult', (reason) =>
      resourceNotFound(uri, `Resource ${uri} not found. ${reason}`),
    );
  });
  server.setRequestHandler('prompts/list', () => list('prompts/list', 'ListPromptsResult', { prompts: [] }));
  server.setRequestHandler('prompts/get', (request) => {
    const { name } = request.params;
    return ask(
      'prompts/get',
      { name, ...(request.params.arguments ? { arguments: request.params.arguments } : {}) },
      'GetPromptResult',
      (reason) => unknownPrompt(name, reason),
    );
  });
  server.setRequestHandler('resources/subscribe', async (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
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
