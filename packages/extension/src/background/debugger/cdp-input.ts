import type { DebuggerSessions } from './debugger-sessions';

export type Point = { x: number; y: number };
type Send = (method: string, params?: Record<string, unknown>) => Promise<unknown>;

/** Keys by name with the codes a page reads (`key`, `code`, `keyCode`); printable ones type their text. */
const NAMED_KEYS: Record<string, { code: string; keyCode: number; text?: string }> = {
  Enter: { code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { code: 'Tab', keyCode: 9 },
  Escape: { code: 'Escape', keyCode: 27 },
  Backspace: { code: 'Backspace', keyCode: 8 },
  Delete: { code: 'Delete', keyCode: 46 },
  ArrowLeft: { code: 'ArrowLeft', keyCode: 37 },
  ArrowUp: { code: 'ArrowUp', keyCode: 38 },
  ArrowRight: { code: 'ArrowRight', keyCode: 39 },
  ArrowDown: { code: 'ArrowDown', keyCode: 40 },
  Home: { code: 'Home', keyCode: 36 },
  End: { code: 'End', keyCode: 35 },
  PageUp: { code: 'PageUp', keyCode: 33 },
  PageDown: { code: 'PageDown', keyCode: 34 },
  ' ': { code: 'Space', keyCode: 32, text: ' ' },
  Space: { code: 'Space', keyCode: 32, text: ' ' },
};

export async function pressKey(send: Send, key: string): Promise<void> {
  const named = NAMED_KEYS[key];
  if (!named && [...key].length === 1) return typeText(send, key);
  const { code, keyCode, text } = named ?? { code: key, keyCode: 0 };
  const name = key === 'Space' ? ' ' : key;
  const base = { key: name, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode };
  await send('Input.dispatchKeyEvent', { type: text ? 'keyDown' : 'rawKeyDown', ...base, ...(text ? { text } : {}) });
  await send('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
}

/** One keyDown (with its text) and keyUp per character, so a page sees every keystroke. */
export async function typeText(send: Send, text: string): Promise<void> {
  for (const character of text) {
    if (character === '\n') {
      await pressKey(send, 'Enter');
      continue;
    }
    const upper = character.toUpperCase();
    const keyCode = /^[A-Z0-9]$/.test(upper) ? upper.charCodeAt(0) : 0;
    const code = /^[A-Z]$/.test(upper) ? `Key${upper}` : /^[0-9]$/.test(character) ? `Digit${character}` : '';
    const base = { key: character, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode };
    await send('Input.dispatchKeyEvent', { type: 'keyDown', ...base, text: character, unmodifiedText: character });
    await send('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
  }
}

const DRAG_STEPS = 6;

/**
 * A drag as a person makes one: press, move in steps, release. A native HTML5 drag (SortableJS,
 * most kanban boards) is intercepted as it starts and delivered with CDP's drag events; a drag
 * built on pointer events (dnd-kit, jQuery UI) just gets the moves.
 */
export async function dragAndDrop(debuggers: DebuggerSessions, tabId: number, from: Point, to: Point): Promise<void> {
  const send: Send = (method, params) => debuggers.send(tabId, method, params);
  let dragData: unknown;
  const stop = debuggers.onEvent((eventTab, method, params) => {
    if (eventTab === tabId && method === 'Input.dragIntercepted') dragData = params.data;
  });
  const mouse = (type: string, at: Point, buttons: number) =>
    send('Input.dispatchMouseEvent', { type, x: at.x, y: at.y, button: 'left', buttons, clickCount: 1 });
  const along = (step: number): Point => ({
    x: from.x + ((to.x - from.x) * step) / DRAG_STEPS,
    y: from.y + ((to.y - from.y) * step) / DRAG_STEPS,
  });
  try {
    await send('Input.setInterceptDrags', { enabled: true });
    await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: from.x, y: from.y });
    await mouse('mousePressed', from, 1);
    for (let step = 1; step <= DRAG_STEPS && dragData === undefined; step++) {
      await mouse('mouseMoved', along(step), 1);
      // The drag starts in the renderer; a round trip lets its interception event arrive.
      await send('Runtime.evaluate', { expression: '0' });
    }
    if (dragData !== undefined) {
      const drag = (type: string, at: Point) =>
        send('Input.dispatchDragEvent', { type, x: at.x, y: at.y, data: dragData });
      await drag('dragEnter', to);
      // Sortable lists reorder on dragover: a few, settling on the target.
      for (let step = DRAG_STEPS - 2; step <= DRAG_STEPS; step++) await drag('dragOver', along(step));
      await drag('drop', to);
    }
    await mouse('mouseReleased', to, 0);
  } finally {
    stop();
    await send('Input.setInterceptDrags', { enabled: false }).catch(() => {});
  }
}
