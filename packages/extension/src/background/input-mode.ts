import { InputMode } from '@tabmcp/protocol';

/** Where the options page keeps the user's choice (docs/user-guide.md). */
export const INPUT_MODE_KEY = 'inputMode';

let fromServer: InputMode | undefined;

/** The connected agent's `--input`, sent with its connect request; the last agent to connect wins. */
export function setServerInputMode(mode: InputMode | undefined): void {
  if (mode !== undefined) fromServer = mode;
}

/** The server's `--input` when it gave one, else the options page's choice, else `auto`. */
export async function inputMode(): Promise<InputMode> {
  if (fromServer) return fromServer;
  const stored = (await chrome.storage.local.get(INPUT_MODE_KEY))[INPUT_MODE_KEY];
  const parsed = InputMode.safeParse(stored);
  return parsed.success ? parsed.data : 'auto';
}
