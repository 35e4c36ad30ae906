import { DIALOG_EVENT } from './channel';
import { hook } from './cloak';

/**
 * A native dialog blocks the page (and the content script with it) until someone answers it, so it
 * is announced before it opens: alert, confirm and prompt are wrapped to dispatch a synchronous DOM
 * event that the content script hears and posts to the background, whose IPC leaves before the
 * renderer blocks. A second event says it closed (the user answered it in the browser). The
 * background then answers calls to the tab at once instead of letting them wait out their timeout.
 * `beforeunload` dialogs cannot be announced from here: the debugger hears them.
 *
 * Only while the bridge is in the page (an agent is connected and the site is allowed), disguised
 * (cloak.ts); returns how to put the browser's own functions back.
 */
type DialogKind = 'alert' | 'confirm' | 'prompt';

function announce(phase: 'open' | 'closed', kind: DialogKind, message: unknown, defaultPrompt?: unknown): void {
  const detail = JSON.stringify({
    phase,
    kind,
    message: String(message ?? '').slice(0, 4_000),
    ...(defaultPrompt === undefined ? {} : { defaultPrompt: String(defaultPrompt).slice(0, 4_000) }),
  });
  window.dispatchEvent(new CustomEvent(DIALOG_EVENT, { detail }));
}

function wrap(kind: DialogKind): () => void {
  return hook(
    window,
    kind,
    (original) =>
      ({
        [kind](this: unknown, ...args: unknown[]) {
          announce('open', kind, args[0], kind === 'prompt' ? (args[1] ?? '') : undefined);
          try {
            return Reflect.apply(original, this, args);
          } finally {
            announce('closed', kind, args[0]);
          }
        },
      })[kind] as (...args: unknown[]) => unknown,
  );
}

export function announceDialogs(): () => void {
  const unhooks = (['alert', 'confirm', 'prompt'] as const).map(wrap);
  return () => {
    for (const unhook of unhooks) unhook();
  };
}
