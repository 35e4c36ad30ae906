/**
 * The widget gauntlet's tasks as data (issue 23): what a user asks, as the steps any browser agent
 * takes, and how to tell from the page's own state that it is done. The same task runs through
 * tabmcp (run-tabmcp.ts) in the e2e suite and through tabmcp, Playwright MCP and
 * chrome-devtools-mcp side by side in bench/widgets.ts; each runner turns a step into its own
 * tools' calls, finding the element in what it reads by role and accessible name, as a model does.
 */

/**
 * An element as a person names it: its accessible name and, where tools agree on it, its role (as an
 * accessibility tree writes it: `button`, `combobox`, `option`, `textbox` …). Leave the role out
 * where tools write it differently (an element that is only draggable is a `listitem` to one and
 * `clickable` to another).
 */
export interface Target {
  role?: string;
  /** The accessible name, matched exactly (after trimming); `starts` matches its beginning. Leave it out for an unnamed control found by `in`. */
  name?: string;
  starts?: boolean;
  /** The row, item or card whose text contains this: the target is the one inside it (the "Delete" of "Water plants"). */
  in?: string;
}

export type Step =
  | { act: 'click' | 'hover' | 'dblclick'; target: Target }
  /** Types `value` into a text box, a type-ahead box or a rich-text editor (replacing what it holds). */
  | { act: 'fill'; target: Target; value: string; submit?: boolean }
  /** Picks the option `value` of a native `<select>` or of a combobox (typed or opened, then chosen). */
  | { act: 'select'; target: Target; value: string }
  /**
   * Selects the piece `text` of what a text box or rich-text editor holds, as a person drags over it
   * (so the editor's toolbar or a key then applies to it).
   */
  | { act: 'selectText'; target: Target; text: string }
  /** Presses a key (`Enter`, `Escape`, `ArrowDown`, `Control+b` …) on the element. */
  | { act: 'press'; target: Target; key: string }
  /** Drags the element onto `to`. */
  | { act: 'drag'; target: Target; to: Target }
  /** Gives the file named `file` (made for the run, `fileBytes` long) to a file field. */
  | { act: 'upload'; target: Target; file: string }
  /**
   * Brings `target` into what the tool shows, inside a list that renders only the rows in view (a
   * virtualized list): where a read does not reach it, clicks `within` (text inside the list) and
   * presses `key` (End, PageDown), as a person scrolls it with the keyboard, reading again after
   * each press, at most `presses` times.
   */
  | { act: 'reveal'; target: Target; within: Target; key: string; presses: number }
  /** Answers the native dialog (alert, confirm, prompt) the last step opened: OK or Cancel, `text` for a prompt. */
  | { act: 'dialog'; accept: boolean; text?: string };

/** A step a tool's driver carries out itself (runSteps does `reveal` with the driver's clicks and key presses). */
export type ActStep = Exclude<Step, { act: 'reveal' }>;

export interface WidgetTask {
  /** `<library>/<task>`, e.g. `tom-select/pick-canada`. */
  id: string;
  /** The npm package the page is built from. */
  library: string;
  /** The page's path on the example server (examples/ is served at its root). */
  path: string;
  /** The task as a user says it. */
  ask: string;
  steps: Step[];
  /** A JavaScript expression evaluated in the page over CDP: the task is done when it is `true`. */
  done: string;
  /** Evaluated in the page when `done` is false, to explain the failure (the library's state). */
  state?: string;
}

/**
 * For the tools with no action that selects text (Playwright MCP, chrome-devtools-mcp): the script a
 * model passes to their evaluate tool, with the element, to select `text` in it.
 */
export function selectTextScript(text: string): string {
  return `(element) => {
  const text = ${JSON.stringify(text)};
  const root = element.nodeType === Node.TEXT_NODE ? element.parentElement : element;
  root.focus?.();
  if ('setSelectionRange' in root) {
    const at = root.value.indexOf(text);
    root.setSelectionRange(at, at + text.length);
    return at >= 0;
  }
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent.indexOf(text);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + text.length);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    return true;
  }
  return false;
}`;
}

/** The size of every file an upload step makes (bytes of `%PDF-1.4 tabmcp gauntlet\n`). */
export const UPLOAD_CONTENT = '%PDF-1.4 tabmcp gauntlet\n';
