import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateIn } from '../page-eval';
import { type ListedTool, ScriptedAgent } from '../real-app-agent';
import type { Agent } from '../server-harness';
import { runTask, type TaskRun, type ToolDriver } from './drive';
import { locate, type ReadNode } from './locate';
import { type Step, type Target, UPLOAD_CONTENT, type WidgetTask } from './task';

/**
 * One element as tabmcp's page read writes it:
 * `[<role> <☑|☐>? "<name>"? (= "<value>")? (placeholder "<hint>")? (<flags>)? <handle>]`.
 */
const TOKEN =
  /\[([a-z]+)(?: [☑☐])?(?: "((?:[^"\\]|\\.)*)")?(?: = "(?:[^"\\]|\\.)*")?(?: placeholder "((?:[^"\\]|\\.)*)")?(?: \([^)]*\))? ([a-z]\d+)\]/g;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d+\.) /;

/** tabmcp's page read (Markdown with a token per control) as nodes; a list item holds what its line shows. */
export function tabmcpNodes(read: string): ReadNode[] {
  const nodes: ReadNode[] = [];
  for (const line of read.split('\n')) {
    const item = LIST_ITEM.exec(line);
    const depth = item ? Math.floor((item[1] ?? '').length / 2) * 2 : 0;
    if (item) nodes.push({ role: 'listitem', name: line.replace(TOKEN, ' ').replace(LIST_ITEM, ''), depth });
    const inside = item ? depth + 1 : 0;
    let last = 0;
    const text = (upTo: number) => {
      const words = line
        .slice(last, upTo)
        .replace(LIST_ITEM, '')
        .replace(/^[#>|\s]+|[|\s]+$/g, '')
        .trim();
      if (words) nodes.push({ role: '', name: words, depth: inside });
    };
    for (const match of line.matchAll(TOKEN)) {
      text(match.index);
      last = match.index + match[0].length;
      const [, role = '', rawName = '', hint, handle] = match;
      const placeholder = hint === undefined ? {} : { placeholder: hint };
      nodes.push({ role, name: rawName.replace(/\\(.)/g, '$1'), ref: handle, depth: inside, ...placeholder });
    }
    text(line.length);
  }
  return nodes;
}

/**
 * Every string in an answer that is JSON (tabmcp's answers are), else the answer itself; less what
 * tabmcp says it did (`done`, `failed`, `renamed`): "hovered checkbox \"Water plants\"" names the
 * control acted on, and is no part of the page an agent looks in for the next control.
 */
function answerText(answer: string): string {
  const strings: string[] = [];
  const OWN_WORDS = new Set(['done', 'failed', 'renamed']);
  const walk = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) if (!OWN_WORDS.has(key)) walk(inner);
  };
  try {
    walk(JSON.parse(answer));
    return strings.join('\n');
  } catch {
    return answer;
  }
}

const quoted = (name: string) => `"${name}`;

/** Whether a get_page_content answer is the whole page: no query, and no paging note (`characters 0–8000 of …`) on its first line. */
function isWhole(answer: string, args: Record<string, unknown>): boolean {
  return args.query === undefined && !/\(characters \d+/.test(answer.slice(0, answer.indexOf('\n')));
}

/**
 * The tool tabmcp derived for this step, where its description names the target as the page does
 * (`Type into "Full name"`, `Click the "Book" button`, `… switch "Window seat" …`): a model calls it
 * instead of reading the page for a handle.
 */
function derivedFor(tools: ListedTool[], step: Step): { tool: string; args: Record<string, unknown> } | undefined {
  if (step.act === 'dialog' || step.target.name === undefined || step.target.in !== undefined) return undefined;
  const name = step.target.name;
  const says = (tool: ListedTool, words: string) => tool.description?.includes(words) === true;
  const has = (tool: ListedTool, property: string) => tool.inputSchema.properties?.[property] !== undefined;
  const choose = (matches: (tool: ListedTool) => boolean) => tools.find((tool) => matches(tool))?.name;
  if (step.act === 'fill') {
    const tool = choose((candidate) => says(candidate, `Type into ${quoted(name)}`) && has(candidate, 'value'));
    return tool ? { tool, args: { value: step.value, ...(step.submit ? { submit: true } : {}) } } : undefined;
  }
  if (step.act === 'click' && (step.target.role === 'checkbox' || step.target.role === 'switch')) {
    const tool = choose((candidate) => says(candidate, `${step.target.role} "${name}"`) && has(candidate, 'checked'));
    return tool ? { tool, args: { checked: true } } : undefined;
  }
  if (step.act === 'click') {
    const tool = choose(
      (candidate) =>
        says(candidate, `Click the "${name}${step.target.starts ? '' : '"'}`) &&
        Object.keys(candidate.inputSchema.properties ?? {}).length === 0,
    );
    return tool ? { tool, args: {} } : undefined;
  }
  if (step.act === 'select') {
    const tool = choose(
      (candidate) =>
        says(candidate, `"${name}"`) &&
        (candidate.inputSchema.properties?.value?.enum ?? []).some((option) => option === step.value),
    );
    return tool ? { tool, args: { value: step.value } } : undefined;
  }
  return undefined;
}

/**
 * Runs a widget task through tabmcp as a model would: it reads the tool list, opens the page, reads
 * the list again (the page's tools came with it), and for each step calls the tool derived for that
 * element where one fits, or finds the element by a find-in-page of its name (the whole page when
 * that finds nothing) and acts on its handle; then reads the library's state over CDP. The agent
 * must be connected to its browser.
 */
export async function runOnTabmcp(agent: Agent, siteUrl: string, task: WidgetTask, files: string): Promise<TaskRun> {
  const script = new ScriptedAgent(agent);
  let readOnce = false;
  const driver: ToolDriver = {
    agent: script,
    read: async (target: Target) => {
      // A model looks at a page it just opened as a whole; later it searches it for what it needs.
      const query = target.in ?? target.name;
      const reads: Array<Record<string, unknown>> = [
        ...(readOnce ? [] : [{}]),
        ...(query ? [{ query }] : []),
        { maxChars: 50_000 },
      ];
      readOnce = true;
      let nodes: ReadNode[] = [];
      for (const args of reads) {
        const answer = await script.call('get_page_content', args);
        nodes = tabmcpNodes(answer);
        // A read whose first line says nothing of more characters was the whole page: a model that just read it
        // whole does not search it or read it again for what it lacked.
        if (locate(nodes, target) || isWhole(answer, args)) break;
      }
      return nodes;
    },
    direct: async (step) => {
      const derived = derivedFor(script.tools, step);
      return derived ? script.call(derived.tool, derived.args) : undefined;
    },
    act: async (step, { target, to }) => {
      if (step.act === 'dialog') {
        // handle_dialog came into the list with the dialog (tools/list_changed before the answer): read it again.
        if (!(await script.listTools()).some((tool) => tool.name === 'handle_dialog'))
          throw new Error('handle_dialog is not listed while the dialog waits');
        return script.call('handle_dialog', { accept: step.accept, ...(step.text ? { text: step.text } : {}) });
      }
      const handle = target?.ref;
      switch (step.act) {
        case 'click':
        case 'hover':
        case 'dblclick':
          return script.call('act', { handle, action: step.act });
        case 'fill':
          return script.call('act', {
            handle,
            action: 'fill',
            value: step.value,
            ...(step.submit ? { submit: true } : {}),
          });
        case 'select':
          return script.call('act', { handle, action: 'select', value: step.value });
        case 'selectText':
          return script.call('act', { handle, action: 'select', value: step.text });
        case 'press':
          return script.call('act', { handle, action: 'press', key: step.key });
        case 'drag':
          return script.call('act', { handle, action: 'drag', value: to?.ref });
        case 'upload': {
          const path = join(files, step.file);
          writeFileSync(path, UPLOAD_CONTENT);
          return script.call('act', { handle, action: 'upload', value: path });
        }
      }
    },
    answerNodes: (answer) => tabmcpNodes(answerText(answer)),
  };
  return runTask(
    {
      driver,
      // A session starts with the tool list; opening the page changes it (the page's tools), so it is read again.
      open: async (url) => {
        await script.listTools();
        await script.call('open_tab', { url });
        await script.listTools();
      },
      evaluate: (page, expression) => evaluateIn<unknown>(agent.stderr, page, expression),
      // The next task starts as a fresh session would, without this page's tools.
      tidy: async (done) => {
        if (!done) await agent.call('handle_dialog', { accept: false });
        await agent.call('close_tab', {});
      },
    },
    siteUrl,
    task,
  );
}
