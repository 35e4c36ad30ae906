import { ErrorCode, ProtocolError } from '@tabmcp/protocol';
import type { DebuggerSessions } from '../debugger/debugger-sessions';
import type { MethodHandlers } from './method-table';
import { getTab } from './navigation';
import type { ScreenshotTaker } from './screenshot';

type Target = { tabId: number; selector?: string; x?: number; y?: number };
type EvaluateReply = { result?: { value?: unknown }; exceptionDetails?: { text?: string } };

/**
 * click, hover and type as trusted input through chrome.debugger (Input.*), so pages see real
 * events; an element is found by CSS selector (scrolled into view, its centre used) or given as a
 * viewport point. forwardCDPCommand passes any CDP method through; screenshot uses captureVisibleTab.
 */
export function interactionMethods(
  cdp: DebuggerSessions,
  screenshots: ScreenshotTaker,
): Pick<MethodHandlers, 'click' | 'hover' | 'type' | 'forwardCDPCommand' | 'screenshot'> {
  const evaluate = async (tabId: number, expression: string): Promise<unknown> => {
    const reply = await cdp.send<EvaluateReply>(tabId, 'Runtime.evaluate', { expression, returnByValue: true });
    if (reply.exceptionDetails)
      throw new ProtocolError(ErrorCode.ServerError, `Script failed: ${reply.exceptionDetails.text ?? 'exception'}`);
    return reply.result?.value;
  };

  const pointOf = async (target: Target): Promise<{ x: number; y: number }> => {
    await getTab(target.tabId);
    if (target.selector === undefined) return { x: target.x ?? 0, y: target.y ?? 0 };
    const found = (await evaluate(target.tabId, locateScript(target.selector))) as
      | { x: number; y: number; width: number; height: number }
      | { error: string };
    if ('error' in found) throw new ProtocolError(ErrorCode.InvalidParams, found.error);
    return { x: found.x, y: found.y };
  };

  const mouse = (tabId: number, type: string, x: number, y: number, extra: Record<string, unknown> = {}) =>
    cdp.send(tabId, 'Input.dispatchMouseEvent', { type, x, y, ...extra });

  return {
    click: async (target) => {
      const { x, y } = await pointOf(target);
      await mouse(target.tabId, 'mouseMoved', x, y);
      await mouse(target.tabId, 'mousePressed', x, y, { button: 'left', clickCount: 1 });
      await mouse(target.tabId, 'mouseReleased', x, y, { button: 'left', clickCount: 1 });
      return { clicked: true, x, y };
    },
    hover: async (target) => {
      const { x, y } = await pointOf(target);
      await mouse(target.tabId, 'mouseMoved', x, y);
      return { hovered: true, x, y };
    },
    type: async ({ tabId, selector, text, clear, submit }) => {
      await getTab(tabId);
      const focused = (await evaluate(tabId, focusScript(selector, clear))) as { ok: true } | { error: string };
      if ('error' in focused) throw new ProtocolError(ErrorCode.InvalidParams, focused.error);
      if (text.length > 0) await cdp.send(tabId, 'Input.insertText', { text });
      if (submit) {
        const enter = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, nativeVirtualKeyCode: 13 };
        await cdp.send(tabId, 'Input.dispatchKeyEvent', { type: 'keyDown', text: '\r', ...enter });
        await cdp.send(tabId, 'Input.dispatchKeyEvent', { type: 'keyUp', ...enter });
      }
      return { typed: true, length: text.length };
    },
    forwardCDPCommand: async ({ tabId, method, params }) => {
      await getTab(tabId);
      // A remote client's CDP state (enabled domains, breakpoints) must outlive the idle detach.
      cdp.hold(tabId, 'proxy mode');
      return { result: (await cdp.send(tabId, method, params)) ?? {} };
    },
    screenshot: (params) => screenshots.capture(params),
  };
}

/** Runs in the page: finds the element, scrolls it into view, returns its centre or why not. */
function locateScript(selector: string): string {
  return `(() => {
    let el;
    try { el = document.querySelector(${JSON.stringify(selector)}); } catch (e) { return { error: 'Invalid CSS selector ' + ${JSON.stringify(JSON.stringify(selector))} }; }
    if (!el) return { error: 'No element matches ' + ${JSON.stringify(JSON.stringify(selector))} + ' in this page' };
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return { error: 'The element ' + ${JSON.stringify(JSON.stringify(selector))} + ' is not visible' };
    return { x: r.left + r.width / 2, y: r.top + r.height / 2, width: r.width, height: r.height };
  })()`;
}

/** Runs in the page: focuses the field (or keeps the focused element) and empties it when asked. */
function focusScript(selector: string | undefined, clear: boolean): string {
  const find =
    selector === undefined
      ? 'document.activeElement'
      : `(() => { try { return document.querySelector(${JSON.stringify(selector)}); } catch { return null; } })()`;
  return `(() => {
    const el = ${find};
    if (!el || el === document.body) return { error: ${JSON.stringify(selector === undefined ? 'No element has the focus: give a selector' : `No element matches ${JSON.stringify(selector)} in this page`)} };
    el.scrollIntoView({ block: 'center' });
    el.focus();
    if (${clear}) {
      if ('value' in el) { el.value = ''; el.dispatchEvent(new Event('input', { bubbles: true })); }
      else if (el.isContentEditable) el.textContent = '';
    }
    return { ok: true };
  })()`;
}
