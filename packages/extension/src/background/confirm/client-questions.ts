import {
  type CallToolResult,
  CLIENT_CONFIRM_META,
  type ClientConfirmation,
  type ConfirmAnswer,
  type ConfirmRequest,
  PERSON_WAIT_MS,
} from '@tabmcp/protocol';

interface Question {
  tabId: number;
  toolName: string;
  args: string;
  expires: number;
}

/** Questions handed to agents' clients, by token; few at once (one per waiting call). */
const questions = new Map<string, Question>();
const MAX_QUESTIONS = 100;

/**
 * The answer that hands the question to the agent's MCP client (elicitation): the server asks the
 * person there and calls again with the answer and this token. The token answers only this call
 * (tab, tool and the same arguments), once, within PERSON_WAIT_MS and a bit.
 */
export function questionForClient(
  tabId: number,
  toolName: string,
  args: Record<string, unknown>,
  request: ConfirmRequest,
): CallToolResult {
  const now = Date.now();
  for (const [token, question] of questions) if (question.expires < now) questions.delete(token);
  if (questions.size >= MAX_QUESTIONS) questions.delete(questions.keys().next().value as string);
  const token = crypto.randomUUID();
  questions.set(token, { tabId, toolName, args: JSON.stringify(args), expires: now + PERSON_WAIT_MS + 15_000 });
  return {
    content: [
      { type: 'text', text: JSON.stringify({ waiting: 'tabmcp asks the person in the agent’s client first' }) },
    ],
    isError: true,
    _meta: { [CLIENT_CONFIRM_META]: { token, request } },
  };
}

/** The person's answer for this very call, or undefined when the token does not name it (used, expired, another call). */
export function clientAnswer(
  confirmed: ClientConfirmation,
  tabId: number,
  toolName: string,
  args: Record<string, unknown>,
): ConfirmAnswer | undefined {
  const question = questions.get(confirmed.token);
  questions.delete(confirmed.token);
  if (!question || question.expires < Date.now()) return undefined;
  if (question.tabId !== tabId || question.toolName !== toolName || question.args !== JSON.stringify(args))
    return undefined;
  return confirmed.answer;
}
