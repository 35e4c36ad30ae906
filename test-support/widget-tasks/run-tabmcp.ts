import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateIn } from '../page-eval';
import { ScriptedAgent } from '../real-app-agent';
import type { Agent } from '../server-harness';
import { type Step, type Target, UPLOAD_CONTENT, type WidgetTask } from './task';

/** One element as tabmcp's page read writes it: `[<role> <☑|☐>? "<name>" (= "<value>")? (<flags>)? <handle>]`. */
const TOKEN = /\[([a-z]+)(?: [☑☐])?(?: "((?:[^"\\]|\\.)*)")?(?: = "(?:[^"\\]|\\.)*")?(?: \([^)]*\))? ([a-z]\d+)\]/g;

export interface TaskRun {
  done: boolean;
  calls: number;
  bytesRead: number;
  /** Every call and its answer, to explain a failure. */
  transcript: string;
  /** The page's `state` expression when the task is not done. */
  state?: unknown;
}

const matches = (target: Target, role: string, name: string) =>
  (target.role === undefined || role === target.role) &&
  (target.starts ? name.startsWith(target.name) : name === target.name);

/** The handle of the element the target names, in a read of the page; undefined when it is not there. */
function handleIn(read: string, target: Target): string | undefined {
  for (const found of read.matchAll(TOKEN)) {
    const [, role, rawName, handle] = found;
    const name = rawName ? rawName.replace(/\\(.)/g, '$1').trim() : labelBefore(read, found.index);
    if (role && handle && matches(target, role, name)) return handle;
  }
  return undefined;
}

/**
 * A field's name when its token leaves it out: the read writes a field's <label> as the text right
 * before its token (`Departure date [textbox = "" k1]`), as a model reads it.
 */
function labelBefore(read: string, at: number): string {
  const line = read.slice(0, at).trimEnd().split('\n').at(-1) ?? '';
  return line.slice(line.lastIndexOf(']') + 1).trim();
}

/**
 * Runs a widget task through tabmcp as a model would: it reads the tool list once, finds each
 * element by a find-in-page of its name (the whole page when that finds nothing), and acts on its
 * handle; then reads the library's state over CDP. The agent must be connected to its browser.
 */
export async function runOnTabmcp(agent: Agent, siteUrl: string, task: WidgetTask, files: string): Promise<TaskRun> {
  const script = new ScriptedAgent(agent);
  const find = async (target: Target): Promise<string> => {
    const found = handleIn(await script.call('get_page_content', { query: target.name }), target);
    if (found) return found;
    const whole = await script.call('get_page_content', { maxChars: 50_000 });
    const handle = handleIn(whole, target);
    if (!handle) throw new Error(`no [${target.role ?? 'any role'} "${target.name}"] in the page read`);
    return handle;
  };
  const perform = async (step: Step): Promise<void> => {
    const handle = await find(step.target);
    switch (step.act) {
      case 'click':
      case 'hover':
      case 'dblclick':
        await script.call('act', { handle, action: step.act });
        return;
      case 'fill':
        await script.call('act', {
          handle,
          action: 'fill',
          value: step.value,
          ...(step.submit ? { submit: true } : {}),
        });
        return;
      case 'select':
        await script.call('act', { handle, action: 'select', value: step.value });
        return;
      case 'selectText':
        await script.call('act', { handle, action: 'select', value: step.text });
        return;
      case 'press':
        await script.call('act', { handle, action: 'press', key: step.key });
        return;
      case 'drag':
        await script.call('act', { handle, action: 'drag', value: await find(step.to) });
        return;
      case 'upload': {
        const path = join(files, step.file);
        writeFileSync(path, UPLOAD_CONTENT);
        await script.call('act', { handle, action: 'upload', value: path });
        return;
      }
    }
  };
  const url = `${siteUrl}${task.path}`;
  let failure = '';
  try {
    await script.call('open_tab', { url });
    await script.listTools();
    for (const step of task.steps) await perform(step);
  } catch (error) {
    failure = `\n${error instanceof Error ? error.message : String(error)}`;
  }
  const page = new URL(url).pathname;
  const done = (await evaluateIn<boolean>(agent.stderr, page, task.done)) === true;
  return {
    done,
    calls: script.calls,
    bytesRead: script.bytesRead,
    transcript: script.transcript.join('\n') + failure,
    ...(done || !task.state ? {} : { state: await evaluateIn<unknown>(agent.stderr, page, task.state) }),
  };
}
