import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

export function jsonOf<T = Record<string, unknown>>(result: CallToolResult): T {
  return JSON.parse(textOf(result)) as T;
}
