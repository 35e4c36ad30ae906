import { InputMode } from '@tabmcp/protocol';

/** Where the options page keeps the user's choice (docs/user-guide.md). */
export const INPUT_MODE_KEY = 'inputMode';

let fromServer: InputMode | undefined;
/**
 * The options page's choice, read once and then kept current by storage.onChanged: every call
 * to a tab asks for it, and a storage read per call (a round trip to the browser process) was a
 * seventh of the worker's busy time on a page tool call.
 */
let stored: Promise<InputMode> | undefined;

/** The connected agent's `--input`, sent with its connect request; the last agent to connect wins. */
export function setServerInputMode(mode: InputMode | undefined): void {
  if (mode !== undefined) fromServer = mode;
}

/** The server's `--input` when it gave one, else the options page's choice, else `auto`. */
export function inputMode(): Promise<InputMode> {
  if (fromServer) return Promise.resolve(fromServer);
  stored ??= readStoredMode();
  return stored;
}

async function readStoredMode(): Promise<InputMode> {
  chrome.storage.onChanged.addListener((changes, area) => {
    const change = changes[INPUT_MODE_KEY];
    if (area === 'local' && change) stored = Promise.resolve(parseMode(change.newValue));
  });
  return parseMode((await chrome.storage.local.get(INPUT_MODE_KEY))[INPUT_MODE_KEY]);
}

function parseMode(value: unknown): InputMode {
  const parsed = InputMode.safeParse(value);
  return parsed.success ? parsed.data : 'auto';
}
