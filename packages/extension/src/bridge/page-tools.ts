import { McpWindowProvider, type Registration } from '@tabmcp/page';
import type { ToolSource } from '@tabmcp/protocol';
import { findFormTools } from './declarative-forms';
import { callWebMcpTool, listWebMcpTools, type ModelContextLike } from './webmcp-context';

const RESCAN_DEBOUNCE_MS = 50;
const FORM_ATTRIBUTES = ['toolname', 'tooldescription', 'tooltitle', 'toolautosubmit', 'toolparamdescription', 'name'];

export interface PageTools {
  provider: McpWindowProvider;
  source(): ToolSource;
  /** Stops following the page's changes. */
  stop(): void;
}

/**
 * One `WindowMcpApi` over the page's WebMCP tools and its declarative forms, kept in step with
 * `toolchange` events and DOM changes. A form that WebMCP already lists (native Chrome and the
 * polyfill register declarative forms themselves) is not listed twice. The rescan's timer is the
 * one the bridge took before any hook (`untrackedSetTimeout`): a rescan is not something a call of
 * the page's tools started, and must not hold its answer.
 */
export async function watchPageTools(
  context: ModelContextLike | undefined,
  untrackedSetTimeout: typeof window.setTimeout,
): Promise<PageTools> {
  const provider = new McpWindowProvider(
    { name: `${location.hostname || 'page'}-webmcp`, version: '1.0.0' },
    { tools: true },
  );
  let registrations: Registration[] = [];
  let signature = '';
  let webMcpCount = 0;

  const sync = async () => {
    const webTools = context ? await listWebMcpTools(context).catch(() => []) : [];
    const names = new Set(webTools.map((tool) => tool.name));
    const formTools = findFormTools().filter((tool) => !names.has(tool.descriptor.name));
    const next = JSON.stringify([webTools, formTools.map((tool) => tool.descriptor)]);
    if (next === signature) return;
    signature = next;
    webMcpCount = webTools.length;
    for (const registration of registrations) registration.remove();
    registrations = [];
    for (const tool of webTools) {
      if (!context) break;
      registrations.push(provider.addTool(tool, (args) => callWebMcpTool(context, tool.name, args)));
    }
    for (const tool of formTools) registrations.push(provider.addTool(tool.descriptor, (args) => tool.run(args)));
  };

  let timer: number | undefined;
  const soon = () => {
    clearTimeout(timer);
    timer = untrackedSetTimeout(() => void sync(), RESCAN_DEBOUNCE_MS);
  };
  context?.addEventListener('toolchange', soon);
  const observer = new MutationObserver(soon);
  observer.observe(document.documentElement, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: FORM_ATTRIBUTES,
  });
  await sync();
  return {
    provider,
    source: () => (webMcpCount > 0 ? 'webmcp' : 'declarative'),
    stop: () => {
      clearTimeout(timer);
      observer.disconnect();
      context?.removeEventListener('toolchange', soon);
    },
  };
}

export async function hasWebMcpTools(context: ModelContextLike): Promise<boolean> {
  return (await listWebMcpTools(context).catch(() => [])).length > 0;
}
