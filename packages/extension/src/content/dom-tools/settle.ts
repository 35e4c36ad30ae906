import { clean } from './text';

const QUIET_MS = 150;
const MAX_WAIT_MS = 2_000;
const MAX_CHANGE_CHARS = 2_000;

/**
 * Runs an action, then waits until the page stops changing (150 ms without mutations, 2 s at
 * most) and returns the text the action added, so an agent sees the outcome without reading the
 * whole page again.
 */
export async function actAndObserve(action: () => void, keepWatching: () => boolean = () => true): Promise<string> {
  const root = document.body ?? document.documentElement;
  const added: Node[] = [];
  let quietTimer: ReturnType<typeof setTimeout> | undefined;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'characterData') added.push(record.target);
      else for (const node of record.addedNodes) added.push(node);
    }
    clearTimeout(quietTimer);
    quietTimer = setTimeout(finish, QUIET_MS);
  });
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  const cap = setTimeout(finish, MAX_WAIT_MS);
  quietTimer = setTimeout(finish, QUIET_MS);
  try {
    action();
    // A page about to navigate away must be answered before it unloads.
    if (!keepWatching()) return '';
    await done;
  } finally {
    observer.disconnect();
    clearTimeout(quietTimer);
    clearTimeout(cap);
  }
  return describeAdded(added);
}

function describeAdded(nodes: Node[]): string {
  const roots = nodes.filter(
    (node) => node.isConnected && !nodes.some((other) => other !== node && other.contains(node)),
  );
  const texts = roots
    .map((node) => (node instanceof HTMLElement ? node.innerText : node.textContent))
    .map((text) => lines(text ?? ''))
    .filter(Boolean);
  const joined = [...new Set(texts)].join('\n');
  return joined.length > MAX_CHANGE_CHARS ? `${joined.slice(0, MAX_CHANGE_CHARS - 1)}…` : joined;
}

/** Keeps the line structure (rows of a result list) but no blank lines or runs of spaces. */
function lines(text: string): string {
  return text
    .split('\n')
    .map((line) => clean(line, 400))
    .filter(Boolean)
    .join('\n');
}
