import { cleanPageLine, markPageText } from '@tabmcp/protocol';

/**
 * Resources and prompts are page-written text that reaches the agent: each description and each
 * prompt message is cleaned (no control or bidi characters, no fake markers) and tied to the origin
 * of the page that wrote it. A page may not speak as the assistant: its prompt messages are the
 * user's to send, so they are all given the user role.
 */
type Entry = Record<string, unknown>;

const MAX_DESCRIPTION = 16_384;

function markEntry(entry: Entry, origin: string, what: string): Entry {
  const marked: Entry = { ...entry };
  for (const key of ['name', 'title'] as const) {
    if (typeof entry[key] === 'string') marked[key] = cleanPageLine(entry[key] as string).slice(0, 1_024);
  }
  marked.description = markPageText(
    typeof entry.description === 'string' ? entry.description : '',
    origin,
    what,
    MAX_DESCRIPTION,
  );
  return marked;
}

function markList<T extends Entry>(result: T, key: string, origin: string, what: string): T {
  const items = result[key];
  if (!Array.isArray(items)) return result;
  return { ...result, [key]: items.map((item: Entry) => markEntry(item, origin, what)) };
}

export function markResourceList<T extends Entry>(result: T, origin: string): T {
  return markList(result, 'resources', origin, 'resource');
}

export function markResourceTemplates<T extends Entry>(result: T, origin: string): T {
  return markList(result, 'resourceTemplates', origin, 'resource template');
}

export function markPromptList<T extends Entry>(result: T, origin: string): T {
  const marked = markList(result, 'prompts', origin, 'prompt');
  const prompts = marked.prompts;
  if (!Array.isArray(prompts)) return marked;
  return {
    ...marked,
    prompts: prompts.map((prompt: Entry) =>
      Array.isArray(prompt.arguments)
        ? {
            ...prompt,
            arguments: prompt.arguments.map((argument: Entry) => markEntry(argument, origin, 'prompt argument')),
          }
        : prompt,
    ),
  };
}

export function markPrompt<T extends Entry>(result: T, origin: string): T {
  const messages = Array.isArray(result.messages) ? (result.messages as Entry[]) : [];
  return {
    ...result,
    description: markPageText(
      typeof result.description === 'string' ? result.description : '',
      origin,
      'prompt',
      MAX_DESCRIPTION,
    ),
    messages: messages.map((message) => {
      const content = message.content as Entry | undefined;
      const text =
        content?.type === 'text' && typeof content.text === 'string'
          ? {
              ...content,
              text: markPageText(
                content.text,
                origin,
                `prompt message (written as ${cleanPageLine(String(message.role)).slice(0, 20)})`,
              ),
            }
          : content;
      return { ...message, role: 'user', content: text };
    }),
  };
}

/**
 * resources/read: each text content is the page's words like any other (issue 26: they reached the
 * agent unmarked), so it is cleaned and marked with the origin; its uri is one clean line. Blobs are
 * bytes the agent decodes itself and pass as they are.
 */
export function markResourceContents<T extends Entry>(result: T, origin: string): T {
  const contents = Array.isArray(result.contents) ? (result.contents as Entry[]) : [];
  return {
    ...result,
    contents: contents.map((content) => ({
      ...content,
      ...(typeof content.uri === 'string' ? { uri: cleanPageLine(content.uri).slice(0, 8_192) } : {}),
      ...(typeof content.text === 'string' ? { text: markPageText(content.text, origin, 'resource') } : {}),
    })),
  };
}
