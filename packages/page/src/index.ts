export { type JsonSchema, validateJsonSchema } from '@tabmcp/protocol/light';
export {
  McpWindowProvider,
  type PromptHandler,
  type ProviderOptions,
  type Registration,
  type ResourceReader,
  type ToolHandler,
} from './provider';
export { TabClient, type TabClientOptions } from './tab-client';
export { serveTab, type TabServer, type TabServerOptions } from './tab-server';
export * from './types';
