import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateOnPort } from '../page-eval';
import { ScriptedAgent } from '../real-app-agent';
import type { StdioMcp } from '../stdio-client';
import { runTask, type TaskRun, type ToolDriver } from './drive';
import { locate, type ReadNode, withOptions } from './locate';
import { selectTextScript, UPLOAD_CONTENT, type WidgetTask } from './task';

/** A line of chrome-devtools-mcp's snapshot: `uid=1_5 <role> "<name>"? <props>` or `uid=1_4 "<text>"`. */
const LINE = /^(\s*)uid=(\S+) (?:([\w-]+)(?: |$))?(?:"((?:[^"\\]|\\.)*)")?/;

/** chrome-devtools-mcp's accessibility snapshot (in a take_snapshot answer) as nodes. */
export function devtoolsNodes(answer: string): ReadNode[] {
  const nodes: ReadNode[] = [];
  for (const line of answer.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const [, indent = '', ref, role = '', rawName] = match;
    const name = rawName === undefined ? '' : (JSON.parse(`"${rawName}"`) as string);
    nodes.push({ role, name, depth: Math.floor(indent.length / 2), ...(ref ? { ref } : {}) });
  }
  return withOptions(nodes);
}

/**
 * Runs a widget task through chrome-devtools-mcp as a model would: it reads the tool list, opens the
 * page with new_page, takes a snapshot when the element it needs is not in the last one (a verbose one
 * when the short one does not show it), and acts by
 * uid: fill (then press_key Enter to submit; fill picks a native select's option, else it opens the
 * combobox and clicks the option), click (dblClick), hover, drag, upload_file, press_key on the
 * focused element, handle_dialog. The page is judged over CDP.
 */
export async function runOnDevtoolsMcp(
  mcp: StdioMcp,
  devtoolsPort: string,
  siteUrl: string,
  task: WidgetTask,
  files: string,
): Promise<TaskRun> {
  const script = new ScriptedAgent(mcp);
  let pageId = 0;
  let focused: string | undefined;
  const driver: ToolDriver = {
    agent: script,
    read: async (target) => {
      const nodes = devtoolsNodes(await script.call('take_snapshot', { pageId }));
      // Its snapshot leaves out much of the tree (a type-ahead list's options): a model asks for all of it.
      return locate(nodes, target)
        ? nodes
        : devtoolsNodes(await script.call('take_snapshot', { pageId, verbose: true }));
    },
    act: async (step, { target, to }, find) => {
      const wasFocused = focused !== undefined && focused === target?.ref;
      focused = target?.ref;
      const uid = target?.ref;
      switch (step.act) {
        case 'dialog':
          return script.call('handle_dialog', {
            pageId,
            action: step.accept ? 'accept' : 'dismiss',
            ...(step.text ? { promptText: step.text } : {}),
          });
        case 'click':
          return script.call('click', { pageId, uid });
        case 'dblclick':
          return script.call('click', { pageId, uid, dblClick: true });
        case 'hover':
          return script.call('hover', { pageId, uid });
        case 'fill': {
          // fill sets a value at once, which a type-ahead box never hears: it gets typed into instead.
          if (target?.role === 'combobox' && !target.options) {
            await script.call('click', { pageId, uid });
            return script.call('type_text', {
              pageId,
              text: step.value,
              ...(step.submit ? { submitKey: 'Enter' } : {}),
            });
          }
          const filled = await script.call('fill', { pageId, uid, value: step.value });
          return step.submit ? script.call('press_key', { pageId, key: 'Enter' }) : filled;
        }
        case 'select': {
          if (target?.options) return script.call('fill', { pageId, uid, value: step.value });
          await script.call('click', { pageId, uid });
          return script.call('click', { pageId, uid: (await find({ role: 'option', name: step.value })).ref });
        }
        case 'selectText': {
          // The element that shows the text, where the snapshot has one (a paragraph of an editor), else the target.
          const holder = await find({ name: step.text }).catch(() => target);
          return script.call('evaluate_script', {
            pageId,
            function: selectTextScript(step.text),
            args: [holder?.ref ?? uid],
          });
        }
        case 'press':
          if (!wasFocused) await script.call('click', { pageId, uid });
          return script.call('press_key', { pageId, key: step.key });
        case 'drag':
          return script.call('drag', { pageId, from_uid: uid, to_uid: to?.ref });
        case 'upload': {
          const path = join(files, step.file);
          writeFileSync(path, UPLOAD_CONTENT);
          return script.call('upload_file', { pageId, uid, filePaths: [path] });
        }
      }
    },
    answerNodes: devtoolsNodes,
    waitForText: (text) => script.call('wait_for', { pageId, text: [text], timeout: 3_000 }),
  };
  return runTask(
    {
      driver,
      open: async (url) => {
        await script.listTools();
        const pages = await script.call('new_page', { url });
        // Its answer lists the pages as `<id>: <title> (<url>)`.
        pageId = Number(/^(\d+):/.exec(pages.split('\n').find((line) => line.includes(url)) ?? '')?.[1]);
        if (!Number.isInteger(pageId)) throw new Error(`no page id for ${url} in: ${pages.slice(0, 500)}`);
      },
      evaluate: (page, expression) => evaluateOnPort<unknown>(devtoolsPort, page, expression),
      tidy: async () => {
        if (pageId) await mcp.call('close_page', { pageId }).catch(() => undefined);
      },
    },
    siteUrl,
    task,
  );
}
