import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textOf } from './results';
import type { Agent } from './server-harness';

/**
 * A scripted agent for the gauntlet (issue 23): it reads the page with get_page_content, finds an
 * element's handle by the text written beside it, as a model reads the page, and keeps a
 * transcript (with the bytes it read) to explain a failure.
 */
export function gauntletAgent(agent: Agent) {
  const transcript: string[] = [];
  let calls = 0;
  let bytesRead = 0;
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> => {
    const result = await agent.call(name, args);
    const text = textOf(result);
    calls += 1;
    bytesRead += Buffer.byteLength(text);
    transcript.push(`${name} ${JSON.stringify(args)} -> ${text}`);
    return result;
  };
  /** The handle of the element written with this text: its own token, or the token right after its label. */
  const handleOf = async (text: string): Promise<string> => {
    const content = textOf(await call('get_page_content'));
    const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const found =
      new RegExp(`\\[[^\\]]*${escaped}[^\\]]*?\\b([a-z]\\d+)\\]`).exec(content)?.[1] ??
      new RegExp(`${escaped}\\s*\\[[^\\]]*?\\b([a-z]\\d+)\\]`).exec(content)?.[1];
    assert.ok(found, `no handle for ${text} in:\n${content}`);
    return found;
  };
  return {
    call,
    handleOf,
    /** The tool's answer parsed as JSON. */
    json: async <T>(name: string, args: Record<string, unknown> = {}): Promise<T> =>
      JSON.parse(textOf(await call(name, args))) as T,
    why: () => transcript.join('\n'),
    get calls() {
      return calls;
    },
    get bytesRead() {
      return bytesRead;
    },
  };
}
