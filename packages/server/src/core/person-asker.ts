import type { ConfirmAnswer, ConfirmRequest } from '@tabmcp/protocol';

/**
 * The agent's MCP client asking its person (MCP elicitation, `elicitation/create`), for a headless
 * browser's confirmation (docs/user-guide.md, "Asking before it matters"). Set by the MCP server that
 * serves this session when its client declared the capability.
 */
export interface PersonAsker {
  canAsk(): boolean;
  /** The person's answer; undefined when they declined, cancelled or did not answer. */
  ask(request: ConfirmRequest): Promise<ConfirmAnswer | undefined>;
}

/** What the person reads in their client: the same facts as the browser's prompt, page text marked. */
export function questionText(request: ConfirmRequest): string {
  const lines = [
    `tabmcp asks before an action that matters on ${request.site || request.url}: ${request.tool}.`,
    ...request.reasons.map((reason) => `- ${reason}`),
  ];
  if (request.caption) lines.push(`The control reads (page text from ${request.site}): "${request.caption}"`);
  if (request.values.length)
    lines.push(
      `What would be sent (page text from ${request.site}): ${request.values.map((value) => `${value.name} = ${value.value}`).join('; ')}`,
    );
  return lines.join('\n');
}
