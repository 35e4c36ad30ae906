import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

const STDERR_KEPT = 16 * 1024 * 1024;

/** An MCP server process driven over stdio by the official MCP SDK client, as an agent would. */
export interface StdioMcp {
  client: Client;
  pid: number;
  /** Everything the process wrote to stderr so far (its log). */
  stderr(): string;
  listChangedCount(): number;
  /** Resolves at the next tools/list_changed after this call. */
  nextListChanged(timeoutMs?: number): Promise<void>;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  toolNames(): Promise<string[]>;
  /** Closes the client, which ends the process. */
  close(): Promise<void>;
}

export interface StdioMcpOptions {
  /** Arguments of `node`: the script first. */
  args: string[];
  /** Added to this process's environment. */
  env?: Record<string, string>;
  cwd?: string;
  clientName: string;
  /** The `node` binary to run; this one by default (bench/tools-call.ts runs a second Node line). */
  node?: string;
  /** Declares the elicitation capability and answers each `elicitation/create` with this. */
  elicit?: (request: ElicitRequest['params']) => Promise<ElicitResult>;
}

export async function startStdioMcp(options: StdioMcpOptions): Promise<StdioMcp> {
  const transport = new StdioClientTransport({
    command: options.node ?? process.execPath,
    args: options.args,
    env: { ...process.env, ...options.env } as Record<string, string>,
    cwd: options.cwd,
    stderr: 'pipe',
  });
  let stderrText = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderrText += chunk.toString();
    // A long fuzz run logs without end: keep the tail, which is what a failing test shows.
    if (stderrText.length > STDERR_KEPT) stderrText = stderrText.slice(-STDERR_KEPT / 2);
  });
  const { elicit } = options;
  const client = new Client(
    { name: options.clientName, version: '1.0.0' },
    elicit ? { capabilities: { elicitation: {} } } : {},
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  let listChanged = 0;
  const waiters: Array<() => void> = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    listChanged += 1;
    for (const waiter of waiters.splice(0)) waiter();
  });
  await client.connect(transport);
  return {
    client,
    pid: transport.pid ?? 0,
    stderr: () => stderrText,
    listChangedCount: () => listChanged,
    nextListChanged: (timeoutMs = 10_000) =>
      new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error('no tools/list_changed arrived')), timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          done();
        });
      }),
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    toolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
    close: () => client.close(),
  };
}
