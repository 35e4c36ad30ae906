import type { CallToolResult } from '@tabmcp/protocol';
import { ACT_ACTIONS, ownPageTool } from '@tabmcp/protocol/light';
import { chooseOption, expectChosen, isCombobox } from './combobox';
import { isTag } from './composed-tree';
import type { DomTool, ToolContext } from './dom-tool';
import { errorResult } from './dom-tool';
import { checkedState, describeElement, isCheckable, isDisabled, isInteractive, isTextField, roleOf } from './elements';
import { callInFrame } from './frame-link';
import { reachAt } from './hit-test';
import { hiddenRoot } from './hover';
import { fillText, pageTurn, pressKey, selectOption, setChecked } from './input';
import { expectChecked, expectSelected, expectValue } from './readback';
import { withScrollSettled } from './scroll';
import { clickTarget } from './sortable-headers';
import { isShown, quoted } from './text';
import { holdsText, selectTextIn } from './text-range';
import {
  type Aim,
  aimAt,
  dragTo,
  pointerClick,
  pointerHover,
  pointOverRow,
  syntheticPointer,
  trustedFill,
  trustedPress,
  typesKeyByKey,
  uploadFile,
} from './trusted-actions';

const ACTIONS = ACT_ACTIONS;
export type Action = (typeof ACTIONS)[number];

/** The floor: one tool that acts on any handle from get_page_content, so no page is a dead end. */
export function actTool(name: string, context: ToolContext): DomTool {
  const tool = ownPageTool('act', name);
  return {
    tool,
    isLive: () => true,
    run: async (args) => {
      // A control in a frame of another site: its frame's own script acts (frame-link.ts).
      const inFrame = context.handles.inFrame(args.handle);
      if (inFrame)
        return 'error' in inFrame
          ? errorResult(inFrame.error)
          : callInFrame(inFrame.frame, 'act', args, inFrame.handle);
      const resolved = context.handles.resolve(args.handle);
      if ('error' in resolved) return errorResult(resolved.error);
      const action = String(args.action) as Action;
      if (!ACTIONS.includes(action)) return errorResult(`action must be one of ${ACTIONS.join(', ')}.`);
      return actOn(resolved.element, action, args, context, String(args.handle));
    },
    subject: (args) => {
      const resolved = context.handles.resolve(args.handle);
      if ('error' in resolved) return undefined;
      const pressesEnter = args.action === 'press' && (args.key ?? 'Enter') === 'Enter';
      const values = typeof args.value === 'string' ? { value: args.value } : {};
      return {
        element: resolved.element,
        action: String(args.action),
        submit: args.submit === true || pressesEnter,
        values,
      };
    },
  };
}

/** Checks that the element can take the action, then performs it; also used by collection tools. */
export async function actOn(
  element: Element,
  action: Action,
  args: { value?: unknown; key?: unknown; submit?: unknown },
  context: ToolContext,
  label: string,
  hoverOnly = false,
): Promise<CallToolResult> {
  const who = `${label} (${describeElement(element)})`;
  const onHover = hoverOnly || (!isShown(element) && context.hover.reveals(hiddenRoot(element, isShown)));
  const problem = refusal(element, action, args, who, onHover);
  if (problem) return errorResult(problem);
  const value = typeof args.value === 'string' ? args.value : '';
  // An item's control is named by its item ("checkbox of item 0 (\"Buy milk\")"); a handle's by itself.
  const named = label.startsWith('Item ')
    ? `${describeElement(element)} of ${label.replace(/^Item/, 'item')}`
    : describeElement(element);
  // Typing goes key by key where the page filters as one types (or --input trusted): trusted-actions.ts.
  const trusted = action === 'fill' && (await typesKeyByKey(element));
  switch (action) {
    case 'click':
    case 'dblclick':
    case 'hover': {
      const target = action === 'click' ? clickTarget(element) : element;
      const done = `${action === 'click' ? 'clicked' : action === 'dblclick' ? 'double-clicked' : 'hovered'} ${named}`;
      // A control shown only while the pointer is over its row: the pointer goes over the row first, as a person's does.
      const hovered = onHover && !isShown(target) ? await pointOverRow(target) : undefined;
      if (hovered === false)
        // No browser pointer (--input synthetic, no debugger): page events reach the hidden control.
        return context.perform(done, () => syntheticPointer(target, action), { subject: element });
      // Aimed before acting: a control under something else is refused, never clicked through it.
      const aim = aimAt(target, hovered === undefined);
      if (!aim.reached) return errorResult(aim.why);
      if (action === 'hover') return context.perform(done, () => pointerHover(aim));
      return context.perform(done, () => pointerClick(aim, action === 'click' ? 1 : 2), { subject: element });
    }
    case 'press': {
      const key = typeof args.key === 'string' && args.key ? args.key : 'Enter';
      return context.perform(`pressed ${key} on ${named}`, () =>
        withScrollSettled(element.ownerDocument, async () => {
          if (!(await trustedPress(element, key))) pressKey(element, key);
        }),
      );
    }
    case 'fill': {
      const submit = args.submit === true;
      return context.perform(
        `filled ${named}${submit ? ' and pressed Enter' : ''}`,
        async () => {
          // Trusted typing presses Enter itself.
          if (trusted && (await trustedFill(element, value, submit))) return;
          fillText(element, value);
          if (!submit) return;
          await pageTurn();
          if (!(await trustedPress(element, 'Enter'))) pressKey(element, 'Enter');
        },
        { readback: expectValue(element, value, submit) },
      );
    }
    case 'drag': {
      const target = context.handles.resolve(value);
      if ('error' in target) return errorResult(`drag needs value: the handle to drop on. ${target.error}`);
      return dragTo(element, target.element, `dragged ${named} onto ${describeElement(target.element)}`, context);
    }
    case 'upload':
      return uploadFile(element, value, `uploaded ${quoted(value)} to ${named}`, context);
    case 'check':
    case 'uncheck': {
      const wanted = action === 'check';
      if (checkedState(element) === wanted)
        return context.perform(`${named} was already ${wanted ? 'checked' : 'unchecked'}`, () => {});
      // A person clicks the box or its label; a box the page draws beside a hidden input gets the input's own click.
      const aim = aimAtCheckable(element);
      if (!aim.reached && !drawnBeside(element)) return errorResult(aim.why);
      return context.perform(
        `${action}ed ${named}`,
        async () => void (aim.reached ? await pointerClick(aim, 1) : await setChecked(element, wanted)),
        { subject: element, readback: expectChecked(element, wanted) },
      );
    }
    case 'select': {
      if (isCombobox(element) || opensAList(element)) {
        let chosen = value;
        return context.perform(
          `selected ${quoted(value)} in ${named}`,
          async () => {
            chosen = await chooseOption(element, value);
          },
          { readback: () => expectChosen(element, chosen)() },
        );
      }
      if (isTextField(element))
        return context.perform(`selected the text ${quoted(value, 60)} in ${named}`, () => {
          if (!selectTextIn(element, value)) throw new Error(`${named} no longer holds ${quoted(value, 60)}`);
        });
      const select = element as HTMLSelectElement;
      let chosen: string | undefined;
      return context.perform(
        `selected ${quoted(value)} in ${named}`,
        () => {
          chosen = selectOption(select, value);
        },
        { readback: () => (chosen === undefined ? 'no option matched' : expectSelected(select, chosen)()) },
      );
    }
  }
}

/** Why an action cannot run on this element, as a sentence that says what to do instead. */
function refusal(
  element: Element,
  action: Action,
  args: { value?: unknown },
  who: string,
  hoverOnly: boolean,
): string | undefined {
  if (!hoverOnly && !isShown(element) && !(element.closest('label') && isShown(element.closest('label') as Element)))
    return `Element ${who} is hidden now. Call get_page_content to see what is shown.`;
  if (isDisabled(element) && action !== 'hover')
    return `Element ${who} is disabled. Change what enables it first (get_page_content shows the page).`;
  const role = roleOf(element);
  if ((action === 'check' || action === 'uncheck') && !isCheckable(element))
    return `${action} needs a checkbox, radio or switch; ${who} is a ${role}. Use click.`;
  if (action === 'uncheck' && role === 'radio')
    return `A radio button cannot be unchecked; check another one of its group instead.`;
  if (action === 'fill') {
    if (!isTextField(element) && !isEditableCombobox(element))
      return `fill needs a text field; ${who} is a ${role}. Use ${hint(element)}.`;
    if (typeof args.value !== 'string') return 'fill needs a value (a string).';
  }
  if (action === 'drag' && typeof args.value !== 'string') return 'drag needs value: the handle to drop on.';
  if (action === 'upload') {
    if (!(isTag(element, 'input') && element.type === 'file'))
      return `upload needs a file field (<input type=file>); ${who} is a ${role}.`;
    if (typeof args.value !== 'string' || !args.value) return 'upload needs value: the path of a local file.';
  }
  if (action === 'select' && isCombobox(element) && typeof args.value !== 'string')
    return 'select needs a value: the text of the option to choose.';
  if (action === 'select' && !isCombobox(element) && isTextField(element)) {
    if (typeof args.value !== 'string' || !holdsText(element, args.value))
      return `select on a text field selects a piece of its text: value must be text that ${who} holds.`;
    return undefined;
  }
  if (action === 'select' && opensAList(element))
    return typeof args.value === 'string' ? undefined : 'select needs a value: the text of the option to choose.';
  if (action === 'select' && !isCombobox(element)) {
    if (!isTag(element, 'select'))
      return `select needs a drop-down list (<select>), a control that opens a list of options, or a text field; ${who} is a ${role}.`;
    if (typeof args.value !== 'string') return 'select needs a value: an option value or text.';
    const wanted = args.value.trim().toLowerCase();
    const found = [...element.options].some(
      (option) => !option.disabled && (option.value === args.value || option.text.trim().toLowerCase() === wanted),
    );
    if (!found) {
      const options = [...element.options]
        .filter((option) => !option.disabled)
        .slice(0, 20)
        .map((option) => quoted(option.text, 30));
      return `${quoted(String(args.value), 40)} is not an option of ${who}. Options: ${options.join(', ')}.`;
    }
  }
  return undefined;
}

/** Where a check or uncheck clicks: the control where a pointer reaches it, else a label of it. */
function aimAtCheckable(element: Element): Aim {
  const own = aimAt(element);
  if (own.reached) return own;
  for (const label of (element as HTMLInputElement).labels ?? []) {
    const viaLabel = aimAt(label);
    if (viaLabel.reached) return viaLabel;
  }
  return own;
}

/**
 * An input the page hides and draws with a sibling (a switch's track over a one-pixel checkbox): what
 * a pointer reaches at its centre is part of the same control, so the input's own click is a person's.
 */
function drawnBeside(element: Element): boolean {
  const box = element.getBoundingClientRect();
  const hit = reachAt(element, { x: box.left + box.width / 2, y: box.top + box.height / 2 });
  if (hit === true) return true;
  return hit !== null && element.parentElement?.contains(hit) === true;
}

/**
 * A control that is no native list and no text field but may open one when clicked (a component
 * library's select drawn as a box of text): `select` clicks it and then the option, as a person does.
 */
function opensAList(element: Element): boolean {
  if (isTag(element, 'select') || isTextField(element) || isCombobox(element) || !isInteractive(element)) return false;
  return ['button', 'clickable'].includes(roleOf(element)) || element.hasAttribute('aria-haspopup');
}

/** An `<input role=combobox>` one types into (type-ahead search boxes). */
function isEditableCombobox(element: Element): boolean {
  return isTag(element, 'input') && roleOf(element) === 'combobox' && !element.readOnly;
}

function hint(element: Element): string {
  if (isCheckable(element)) return 'check or uncheck';
  if (isTag(element, 'select')) return 'select';
  return 'click';
}
