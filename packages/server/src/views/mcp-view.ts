import type { CallToolResult } from '@tabmcp/protocol';
import type { PersonAsker } from '../core/person-asker';
import type { ListedTool, Progress } from '../core/tool-definition';

/**
 * What the MCP server shows an agent: a tool list, a way to call a tool, and a signal when the
 * list changed. The focused view is the session itself; the `all` view (docs/requirements.md#founding-decisions, decision 3)
 * adds every tab's tools under hub names.
 */
export interface McpView {
  listTools(): ListedTool[];
  callTool(name: string, args: Record<string, unknown>, progress?: Progress): Promise<CallToolResult>;
  ontoolschanged: (() => void) | undefined;
  /** The MCP client's way to ask its person (elicitation), for confirmations a headless browser cannot show. */
  setPersonAsker?(asker: PersonAsker): void;
  /**
   * Show or hide the stable fallback tools for a client that will not hear of tool-list changes
   * (a 2026-07-28 client without a tools listen stream); `--fallback-tools` keeps them on anyway.
   */
  setAutoFallback?(on: boolean): void;
  /** Extra server capabilities to declare at initialize (e.g. docs/requirements.md#hub's `browser` set). */
  readonly capabilities?: Record<string, unknown>;
}
