import { DEFAULT_BROWSER_LINK_PORT, PopupState, validate } from '@tabmcp/protocol';
import { linkAdvice } from '../link-advice';
import './confirm-choice';
import './input-choice';
import './remote-proxy';

/**
 * The options page where a person pairs their own Chrome with a tabmcp server: port and pairing
 * token go to chrome.storage.local, which the background's config reads on its next dial (it
 * retries every few seconds while the server refuses it), and the page shows the link's state.
 */
const form = document.getElementById('pair') as HTMLFormElement;
const portInput = document.getElementById('port') as HTMLInputElement;
const tokenInput = document.getElementById('token') as HTMLInputElement;
const status = document.getElementById('status') as HTMLParagraphElement;
const forget = document.getElementById('forget') as HTMLButtonElement;

const STATUS_EVERY_MS = 1_000;

async function load(): Promise<void> {
  const stored = (await chrome.storage.local.get(['port', 'token'])) as { port?: number; token?: string };
  portInput.value = String(stored.port ?? DEFAULT_BROWSER_LINK_PORT);
  tokenInput.value = stored.token ?? '';
}

function show(text: string, ok: boolean): void {
  status.textContent = text;
  status.className = ok ? 'ok' : 'bad';
}

async function refreshStatus(): Promise<void> {
  const answer: unknown = await chrome.runtime.sendMessage({ type: 'popup/state' }).catch(() => undefined);
  const parsed = validate(PopupState, answer, 'link state');
  if (!parsed.ok) {
    show('The extension background did not answer; reload the extension.', false);
    return;
  }
  const { link, linkProblem, serverUrl } = parsed.value;
  if (link === 'open') show(`Connected to ${serverUrl}`, true);
  else show(linkAdvice(linkProblem, serverUrl, chrome.runtime.id), false);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const port = Number(portInput.value);
  const token = tokenInput.value.trim();
  if (!Number.isInteger(port) || port < 1 || port > 65_535 || token.length < 16) {
    show('Give a port (1–65535) and the whole token that `tabmcp pair` printed.', false);
    return;
  }
  chrome.storage.local.set({ port, token }).then(
    () => show('Saved. Connecting…', true),
    (error: unknown) => show(`Could not save: ${String(error)}`, false),
  );
});

forget.addEventListener('click', () => {
  chrome.storage.local.remove(['port', 'token']).then(load, () => {});
});

void load();
void refreshStatus();
setInterval(() => void refreshStatus(), STATUS_EVERY_MS);
