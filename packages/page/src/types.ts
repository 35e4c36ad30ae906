/** The shapes of docs/requirements.md#page-sdk's `WindowMcpApi`, in MCP's own vocabulary. */
export type JsonObject = { [key: string]: unknown };

export interface ServerInfo {
  name: string;
  version: string;
}

export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { listChanged?: boolean; subscribe?: boolean };
  prompts?: { listChanged?: boolean };
  [key: string]: unknown;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  cache?: boolean;
  [key: string]: unknown;
}

export interface ToolDescriptor {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject & { type: 'object' };
  outputSchema?: JsonObject & { type: 'object' };
  annotations?: ToolAnnotations;
}

export type ContentBlock = { type: 'text'; text: string } | { type: string; [key: string]: unknown };

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
}

export interface ResourceDescriptor {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ResourceTemplateDescriptor {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export interface ReadResourceResult {
  contents: ResourceContents[];
}

export interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

export interface PromptDescriptor {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
}

export type NotificationKind = 'toolsListChanged' | 'resourcesListChanged' | 'promptsListChanged' | 'resourceUpdated';

export interface McpNotificationDetail {
  type: NotificationKind;
  uri?: string;
}

export interface WindowMcpApi extends EventTarget {
  getServerInfo(): Promise<ServerInfo>;
  getCapabilities(): Promise<ServerCapabilities>;
  listResources(): Promise<{ resources: ResourceDescriptor[]; resourceTemplates?: ResourceTemplateDescriptor[] }>;
  readResource(params: { uri: string }): Promise<ReadResourceResult>;
  listTools(): Promise<{ tools: ToolDescriptor[] }>;
  callTool(params: { name: string; arguments?: JsonObject }): Promise<CallToolResult>;
  listPrompts(): Promise<{ prompts: PromptDescriptor[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<GetPromptResult>;
}

export const MCP_NOTIFICATION_EVENT = 'mcpNotification';
