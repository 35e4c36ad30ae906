import { type ConfirmAnswer, ConfirmRequest, type SentValue } from '@tabmcp/protocol';

/**
 * The confirmation prompt (docs/user-guide.md, "Asking before it matters"): an extension page in a
 * window of its own, which no page can script. It shows what the background asks about, with the
 * page's own words marked as the page's, and sends back the person's answer.
 */
const id = new URLSearchParams(location.search).get('id') ?? '';

function byId(name: string): HTMLElement {
  const node = document.getElementById(name);
  if (!node) throw new Error(`confirm.html lacks #${name}`);
  return node;
}

/** Page text, shown as text (never HTML), in a box that says whose words they are. */
function pageText(text: string, site: string): HTMLElement {
  const box = document.createElement('span');
  box.className = 'page-text';
  const from = document.createElement('small');
  from.textContent = `page text from ${site}:`;
  box.append(from, document.createElement('br'), text);
  return box;
}

function render(request: ConfirmRequest): void {
  byId('site').textContent = request.site || request.url;
  byId('tool').textContent = request.tool;
  byId('url').textContent = request.url;
  byId('reasons').replaceChildren(
    ...request.reasons.map((reason) => {
      const item = document.createElement('li');
      item.textContent = `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;
      return item;
    }),
  );
  const caption = byId('caption');
  if (request.caption) caption.replaceChildren(pageText(request.caption, request.site));
  else caption.textContent = '(none read)';
  const values = byId('values');
  values.replaceChildren(...request.values.map((value) => row(value, request.site)));
  if (!request.values.length) values.textContent = 'nothing';
}

function row(value: SentValue, site: string): HTMLTableRowElement {
  const tr = document.createElement('tr');
  const name = document.createElement('td');
  name.textContent = value.name;
  const shown = document.createElement('td');
  shown.append(pageText(value.value, site));
  tr.append(name, shown);
  return tr;
}

async function answer(choice: ConfirmAnswer): Promise<void> {
  for (const button of document.querySelectorAll('button')) button.disabled = true;
  await chrome.runtime.sendMessage({ type: 'tabmcp/confirm-answer', id, answer: choice });
  byId('status').textContent = choice === 'deny' ? 'Denied.' : 'Allowed.';
  window.close();
}

byId('allow-once').addEventListener('click', () => void answer('once'));
byId('allow-always').addEventListener('click', () => void answer('always'));
byId('deny').addEventListener('click', () => void answer('deny'));

void chrome.runtime.sendMessage({ type: 'tabmcp/confirm-get', id }).then((raw: unknown) => {
  const parsed = ConfirmRequest.safeParse((raw as { request?: unknown } | undefined)?.request);
  if (parsed.success) {
    render(parsed.data);
    // Answerable only once the person can see what is asked (the buttons start disabled in confirm.html).
    for (const button of document.querySelectorAll('button')) button.disabled = false;
  } else {
    byId('status').textContent = 'This request was already answered or withdrawn.';
    for (const button of document.querySelectorAll('button')) button.disabled = true;
  }
});
