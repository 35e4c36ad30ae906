import { z } from 'zod';
import { JsonRpcId } from './jsonrpc';
import { CallToolResult, ToolArguments, ToolList } from './tool';

/**
 * Messages on the chrome.runtime Port between a tab's content script (the proxy of mcp-b.md) and
 * the extension background (the hub). They are JSON-RPC 2.0 shaped, with mcp-b.md's method names.
 */
export const PORT_NAME = 'tabmcp-tab';

/** Where a tab's tools came from, so the hub and agents can tell a page SDK from derived tools. */
export const ToolSource = z.enum(['mcp-b', 'window.mcp', 'webmcp', 'declarative', 'dom']);
export type ToolSource = z.infer<typeof ToolSource>;

export const RegisterToolsMessage = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.literal('browser/registerTools'),
  params: z.object({ tools: ToolList, tabUrl: z.string().max(8192).optional(), source: ToolSource.optional() }),
});

export const UpdateToolsMessage = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.literal('browser/updateTools'),
  params: z.object({ tools: ToolList, source: ToolSource.optional() }),
});

export const ExecuteToolRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId,
  method: z.literal('browser/executeTool'),
  params: z.object({ toolName: z.string().min(1).max(256), args: ToolArguments }),
});
export type ExecuteToolRequest = z.infer<typeof ExecuteToolRequest>;

export const ToolResultMessage = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId,
  result: z.union([
    z.object({ success: z.literal(true), payload: CallToolResult }),
    z.object({ success: z.literal(false), payload: z.string().max(65_536) }),
  ]),
});
export type ToolResultMessage = z.infer<typeof ToolResultMessage>;

export const ContentToBackground = z.union([RegisterToolsMessage, UpdateToolsMessage, ToolResultMessage]);
export type ContentToBackground = z.infer<typeof ContentToBackground>;

export const BackgroundToContent = ExecuteToolRequest;
export type BackgroundToContent = z.infer<typeof BackgroundToContent>;
