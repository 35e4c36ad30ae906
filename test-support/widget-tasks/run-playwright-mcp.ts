import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateOnPort } from '../page-eval';
import { ScriptedAgent } from '../real-app-agent';
import type { StdioMcp } from '../stdio-client';
import { runTask, type TaskRun, type ToolDriver } from './drive';
import { type ReadNode, withOptions } from './locate';
import { selectTextScript, UPLOAD_CONTENT, type WidgetTask } from './task';

/** A YAML line of Playwright MCP's snapshot: `- <role> "<name>"? [attr]* [ref=e5]? (: <text>)?`. */
const LINE = /^(\s*)- (.*)$/;

const unquote = (text: string) => (text.startsWith('"') ? (JSON.parse(text) as string) : text);

/** Playwright MCP's aria snapshot (the YAML in a browser_snapshot answer) as nodes. */
export function playwrightNodes(answer: string): ReadNode[] {
  const yaml = /```yaml\n([\s\S]*?)```/.exec(answer)?.[1];
  if (yaml === undefined) return [];
  const nodes: ReadNode[] = [];
  for (const line of yaml.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    let body = match[2] ?? '';
    // YAML quotes a key holding a colon: `'heading "Step 1: who?" [ref=e4]':`.
    if (body.startsWith("'")) {
      const end = body.lastIndexOf("'");
      body = body.slice(1, end).replace(/''/g, "'") + body.slice(end + 1);
    }
    const head = /^([\w/-]+)(?: "((?:[^"\\]|\\.)*)")?((?:\s*\[[^\]]*\])*)\s*(?::\s*(.*))?$/.exec(body);
    // `- /placeholder: What needs to be done?` under a text box: the hint it shows, kept on the box.
    const box = nodes.at(-1);
    if (head?.[1] === '/placeholder' && box) box.placeholder = unquote((head[4] ?? '').trim());
    if (!head || head[1]?.startsWith('/')) continue;
    const [, role = '', rawName, attributes = '', inline = ''] = head;
    const text = inline ? unquote(inline.trim()) : '';
    const ref = /\[ref=(\w+)\]/.exec(attributes)?.[1];
    const name = role === 'text' ? text : rawName !== undefined ? unquote(`"${rawName}"`) : text;
    nodes.push({ role, name, depth: Math.floor((match[1] ?? '').length / 2), ...(ref ? { ref } : {}) });
  }
  return withOptions(nodes);
}

/**
 * Runs a widget task through Playwright MCP as a model would: it reads the tool list, navigates,
 * takes a snapshot when the element it needs is not in the last one (an action's answer links its
 * snapshot in a file, which costs the same to read), and acts by ref: browser_type, browser_click
 * (doubleClick), browser_hover, browser_select_option for a native select (else opens the combobox
 * and clicks the option), browser_drag, browser_file_upload after clicking the file field,
 * browser_press_key on the focused element, browser_handle_dialog. The page is judged over CDP.
 * `files` must be inside its working directory (it refuses files outside its roots).
 */
export async function runOnPlaywrightMcp(
  mcp: StdioMcp,
  devtoolsPort: string,
  siteUrl: string,
  task: WidgetTask,
  files: string,
): Promise<TaskRun> {
  const script = new ScriptedAgent(mcp);
  let focused: string | undefined;
  const described = (node: ReadNode | undefined) => ({ element: `${node?.role} "${node?.name}"`, target: node?.ref });
  const driver: ToolDriver = {
    agent: script,
    read: async () => playwrightNodes(await script.call('browser_snapshot', {})),
    act: async (step, { target, to }, find) => {
      const wasFocused = focused !== undefined && focused === target?.ref;
      focused = target?.ref;
      switch (step.act) {
        case 'dialog':
          return script.call('browser_handle_dialog', {
            accept: step.accept,
            ...(step.text ? { promptText: step.text } : {}),
          });
        case 'click':
          return script.call('browser_click', described(target));
        case 'dblclick':
          return script.call('browser_click', { ...described(target), doubleClick: true });
        case 'hover':
          return script.call('browser_hover', described(target));
        case 'fill':
          return script.call('browser_type', {
            ...described(target),
            text: step.value,
            ...(step.submit ? { submit: true } : {}),
          });
        case 'select': {
          if (target?.options)
            return script.call('browser_select_option', { ...described(target), values: [step.value] });
          await script.call('browser_click', described(target));
          return script.call('browser_click', described(await find({ role: 'option', name: step.value })));
        }
        case 'selectText': {
          // The element that shows the text, where the snapshot has one (a paragraph of an editor), else the target.
          const holder = await find({ name: step.text }).catch(() => target);
          return script.call('browser_evaluate', { ...described(holder), function: selectTextScript(step.text) });
        }
        case 'press':
          if (!wasFocused) await script.call('browser_click', described(target));
          return script.call('browser_press_key', { key: step.key });
        case 'drag':
          return script.call('browser_drag', {
            startElement: described(target).element,
            startTarget: target?.ref,
            endElement: described(to).element,
            endTarget: to?.ref,
          });
        case 'upload': {
          const path = join(files, step.file);
          writeFileSync(path, UPLOAD_CONTENT);
          // Clicking the field opens the file chooser, which browser_file_upload answers.
          await script.call('browser_click', described(target));
          return script.call('browser_file_upload', { paths: [path] });
        }
      }
    },
    answerNodes: playwrightNodes,
    waitForText: (text) => script.call('browser_wait_for', { text, time: 3 }),
  };
  return runTask(
    {
      driver,
      open: async (url) => {
        await script.listTools();
        await script.call('browser_navigate', { url });
      },
      evaluate: (page, expression) => evaluateOnPort<unknown>(devtoolsPort, page, expression),
      // A failed run may leave a file chooser or a dialog open, which would block the next task.
      tidy: async (done) => {
        if (done) return;
        for (const [tool, args] of [
          ['browser_file_upload', {}],
          ['browser_handle_dialog', { accept: false }],
        ] as const)
          await mcp.call(tool, args).catch(() => undefined);
      },
    },
    siteUrl,
    task,
  );
}
