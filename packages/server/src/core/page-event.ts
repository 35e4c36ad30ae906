/** What the focused tab's page produced that the MCP face must pass on. */
export type PageEvent = { type: 'focus' } | { type: 'notification'; method: string; params?: Record<string, unknown> };
