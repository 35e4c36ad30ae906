import { InputMode } from '@tabmcp/protocol';
import { INPUT_MODE_KEY } from '../background/input-mode';

/** The options page's input choice (auto, trusted, synthetic), kept in chrome.storage.local. */
const select = document.getElementById('input-mode') as HTMLSelectElement;
const status = document.getElementById('input-status') as HTMLParagraphElement;

void chrome.storage.local.get(INPUT_MODE_KEY).then((stored) => {
  const parsed = InputMode.safeParse(stored[INPUT_MODE_KEY]);
  select.value = parsed.success ? parsed.data : 'auto';
});

select.addEventListener('change', () => {
  const parsed = InputMode.safeParse(select.value);
  if (!parsed.success) return;
  chrome.storage.local.set({ [INPUT_MODE_KEY]: parsed.data }).then(
    () => {
      status.textContent = 'Saved. An agent started with --input still decides for its own calls.';
    },
    (error: unknown) => {
      status.textContent = `Could not save: ${String(error)}`;
    },
  );
});
