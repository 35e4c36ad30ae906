export { type ClientOptions, McpWindowClient, McpWindowClient as McpWindowClientSDK } from './client';
export { type JsonSchema, validateJsonSchema } from './json-schema';
export type { PageMcpApi } from './mcp-dispatch';
export {
  McpWindowProvider,
  McpWindowProvider as McpWindowProviderSDK,
  type PromptHandler,
  type ProviderOptions,
  type Registration,
  type ResourceReader,
  type ToolDefinition,
  type ToolHandler,
} from './provider';
export type { StandardSchemaLike } from './schema-input';
export { TabClient, type TabClientOptions } from './tab-client';
export { serveTab, type TabServer, type TabServerOptions } from './tab-server';
export * from './types';
export { serveWindow, type WindowServerOptions } from './window-server';
