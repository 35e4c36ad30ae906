import type { ScriptedAgent } from '../real-app-agent';
import { describeTarget, locate, type ReadNode } from './locate';
import type { ActStep, Step, Target, WidgetTask } from './task';

export interface TaskRun {
  done: boolean;
  calls: number;
  bytesRead: number;
  /** Of bytesRead, the tool lists. */
  toolListBytes: number;
  /** Every call and its answer, to explain a failure. */
  transcript: string;
  /** The page's `state` expression when the task is not done. */
  state?: unknown;
}

/** Finds an element: in what was read already, else by reading the page again. */
type Find = (target: Target) => Promise<ReadNode>;

/** How one tool is driven through a task; runSteps does the rest the same way for every tool. */
export interface ToolDriver {
  agent: ScriptedAgent;
  /** Reads the page afresh, enough to find `target` (a whole snapshot, or a find-in-page). */
  read(target: Target): Promise<ReadNode[]>;
  /** Carries out one step on the element found for it; returns the answer's text. */
  act(step: ActStep, found: { target?: ReadNode; to?: ReadNode }, find: Find): Promise<string>;
  /** A tool made for this very step (tabmcp's derived tools), called instead of finding the element; undefined where none fits. */
  direct?(step: Step): Promise<string | undefined>;
  /** The elements an answer shows (a snapshot or a list of changes it carries), to look there first. */
  answerNodes(answer: string): ReadNode[];
  /**
   * Waits until the page shows `text` (a tool's own wait, as a model calls it when a fresh read lacks what
   * an action should have brought: suggestions a page shows after a debounce); undefined where the tool
   * has none, or needs none because its answers wait for the page to settle.
   */
  waitForText?(text: string): Promise<string>;
}

/**
 * Runs a task's steps as a model does with any of the tools: it looks for each element in what it
 * read last (a snapshot, a page read, the last answer), reads the page again only when the element
 * is not there, and when acting on an element it had read before fails (the page moved on), it reads
 * again once and retries. Throws with what was missing or what failed.
 */
async function runSteps(driver: ToolDriver, steps: Step[]): Promise<void> {
  let seen: ReadNode[] = [];
  let freshOnly = false;
  let lastRef: string | undefined;
  const find: Find = async (target) => {
    const known = freshOnly ? undefined : locate(seen, target, lastRef);
    if (known) return known;
    seen = await driver.read(target);
    let found = locate(seen, target, lastRef);
    if (!found && driver.waitForText && target.name !== undefined) {
      // The wait's own answer may carry a snapshot (chrome-devtools-mcp's does): read again only if not.
      const shown = driver.answerNodes(await driver.waitForText(target.name).catch(() => ''));
      seen = shown.length > 0 ? shown : await driver.read(target);
      found = locate(seen, target, lastRef);
    }
    if (!found) throw new Error(`no ${describeTarget(target)} in the last read of the page`);
    return found;
  };
  const reveal = async (step: Extract<Step, { act: 'reveal' }>) => {
    if (await find(step.target).catch(() => undefined)) return '';
    const within = await find(step.within);
    let answer = await driver.act({ act: 'click', target: step.within }, { target: within }, find);
    for (let press = 0; press <= step.presses; press++) {
      const shown = driver.answerNodes(answer);
      if (locate(shown, step.target)) {
        seen = shown;
        return answer;
      }
      if (await find(step.target).catch(() => undefined)) return answer;
      if (press === step.presses) break;
      // The key goes where the click was, and the list under it scrolls, as for a person.
      answer = await driver.act({ act: 'press', target: step.within, key: step.key }, { target: within }, find);
    }
    throw new Error(`no ${describeTarget(step.target)} after pressing ${step.key} ${step.presses} times`);
  };
  const attempt = async (step: Step) => {
    if (step.act === 'dialog') return driver.act(step, {}, find);
    if (step.act === 'reveal') return reveal(step);
    const target = await find(step.target);
    lastRef = target.ref;
    const to = step.act === 'drag' ? await find(step.to) : undefined;
    return driver.act(step, { target, ...(to ? { to } : {}) }, find);
  };
  for (const step of steps) {
    const direct = await driver.direct?.(step).catch(() => undefined);
    if (direct !== undefined) {
      seen = withNewest(driver.answerNodes(direct), seen);
      continue;
    }
    const before = driver.agent.transcript.length;
    let answer: string;
    try {
      answer = await attempt(step);
    } catch (error) {
      // Nothing was read for this step: it acted on an element read earlier, which the page may have replaced.
      const readNothing = driver.agent.transcript.slice(before).every((entry) => !isRead(entry));
      if (step.act === 'dialog' || !readNothing) throw error;
      freshOnly = true;
      try {
        answer = await attempt(step);
      } finally {
        freshOnly = false;
      }
    }
    seen = withNewest(driver.answerNodes(answer), seen);
  }
}

/**
 * What the agent knows of the page after an answer that shows part of it: that part first, and of what it had
 * read before, all but the elements the answer shows again. A handle read as "15" before "next month" and shown
 * as "13" after it (a calendar that reuses its cells) is "13" now, as a model reading the answer takes it.
 */
export function withNewest(shown: ReadNode[], seen: ReadNode[]): ReadNode[] {
  const refs = new Set(shown.flatMap((node) => (node.ref ? [node.ref] : [])));
  return [...shown, ...seen.filter((node) => node.ref === undefined || !refs.has(node.ref))];
}

/** Whether a transcript entry is a read of the page (as opposed to an action). */
const isRead = (entry: string) => /^→ (get_page_content|browser_snapshot|take_snapshot)\b/.test(entry);

/** Judges a task by the page's own state, waiting a moment for the page to apply the last input. */
async function judge(
  evaluate: (expression: string) => Promise<unknown>,
  task: WidgetTask,
): Promise<{ done: boolean; state?: unknown }> {
  const safely = async (expression: string) => {
    try {
      return await evaluate(expression);
    } catch (error) {
      return `could not read the page: ${error instanceof Error ? error.message : String(error)}`;
    }
  };
  const deadline = Date.now() + 2000;
  for (;;) {
    if ((await safely(task.done)) === true) return { done: true };
    if (Date.now() > deadline) break;
    await new Promise((wait) => setTimeout(wait, 100));
  }
  return { done: false, ...(task.state ? { state: await safely(task.state) } : {}) };
}

/** How a runner starts a task on its tool, reads the page's state, and tidies up after it. */
export interface TaskShell {
  driver: ToolDriver;
  /** Reads the tool list and opens `url`, as an agent of that tool starts. */
  open(url: string): Promise<void>;
  /** Evaluates `expression` in the page whose address contains `page`, over CDP. */
  evaluate(page: string, expression: string): Promise<unknown>;
  /** Not the agent's cost: what the next task needs cleared (the task's tab, a modal a failed run left open). */
  tidy(done: boolean): Promise<void>;
}

let runs = 0;

/** Runs a task through one tool: opens a page of its own (a unique address, so the judge reads this run's), steps, judges. */
export async function runTask(shell: TaskShell, siteUrl: string, task: WidgetTask): Promise<TaskRun> {
  const url = `${siteUrl}${task.path}${task.path.includes('?') ? '&' : '?'}widget-run=${++runs}`;
  const script = shell.driver.agent;
  let failure = '';
  try {
    await shell.open(url);
    await runSteps(shell.driver, task.steps);
  } catch (error) {
    failure = `\n${error instanceof Error ? error.message : String(error)}`;
  }
  const page = url.slice(siteUrl.length);
  const verdict = await judge((expression) => shell.evaluate(page, expression), task);
  // Apps served from one origin share its storage (TodoMVC's canjs and canjs_require both keep their
  // todos under "Constructor"): the next task must not start with this one's rows.
  await shell.evaluate(page, 'localStorage.clear(), sessionStorage.clear(), true').catch(() => undefined);
  await shell.tidy(verdict.done);
  return {
    ...verdict,
    calls: script.calls,
    bytesRead: script.bytesRead,
    toolListBytes: script.toolListBytes,
    transcript: script.transcript.join('\n') + failure,
  };
}
