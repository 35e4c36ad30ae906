import { type PopupRequest, PopupState, type PopupTab, validate } from '@tabmcp/protocol';
import { linkAdvice } from '../link-advice';
import { clearActivity, renderActivity } from './activity';

/**
 * The toolbar popup: the link to the tabmcp server, the tabs with tools and whether their site may
 * reach agents (allow / block), and the last calls. Page text is shown as text, never as HTML.
 */
async function ask(request: PopupRequest): Promise<PopupState | undefined> {
  const raw: unknown = await chrome.runtime.sendMessage(request);
  const parsed = validate(PopupState, raw, 'popup state');
  return parsed.ok ? parsed.value : undefined;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function byId(id: string): HTMLElement {
  const node = document.getElementById(id);
  if (!node) throw new Error(`popup.html lacks #${id}`);
  return node;
}

const ACCESS_TEXT: Record<PopupTab['access'], string> = {
  allowed: 'allowed',
  pending: 'not allowed yet: its tools are hidden from agents',
  blocked: 'blocked',
};

function renderTab(tab: PopupTab): HTMLLIElement {
  const item = element('li');
  const title = element('div', tab.title || tab.url, 'title');
  if (tab.active) title.append(element('span', ' (active)', 'muted'));
  item.append(
    title,
    element('span', tab.site, 'muted'),
    element('span', ACCESS_TEXT[tab.access], `access ${tab.access}`),
  );
  item.append(element('div', tab.tools.join(', ') || 'no tools', 'tools'));
  if (tab.site) {
    const allow = element('button', 'Allow site');
    allow.dataset.site = tab.site;
    allow.dataset.decision = 'allow';
    const block = element('button', 'Block site');
    block.dataset.site = tab.site;
    block.dataset.decision = 'block';
    if (tab.access === 'allowed') item.append(block);
    else item.append(allow, ...(tab.access === 'pending' ? [block] : []));
  }
  return item;
}

function render(state: PopupState): void {
  const link = byId('link');
  link.textContent = state.link === 'open' ? 'connected to tabmcp' : 'not connected';
  link.className = `badge ${state.link}`;
  byId('server').textContent = `Server: ${state.serverUrl}`;
  const advice = byId('advice');
  advice.hidden = state.link === 'open';
  byId('advice-text').textContent =
    state.link === 'open' ? '' : linkAdvice(state.linkProblem, state.serverUrl, chrome.runtime.id);
  const tabs = byId('tabs');
  tabs.replaceChildren(
    ...(state.tabs.length ? state.tabs.map(renderTab) : [element('li', 'No tab offers tools.', 'muted')]),
  );
  const calls = byId('calls');
  calls.replaceChildren(
    ...(state.calls.length
      ? state.calls.map((call) => {
          const item = element('li');
          item.append(
            element('span', call.outcome === 'ok' ? '✓ ' : '✗ ', call.outcome === 'ok' ? 'ok' : 'error'),
            element('span', `${call.tool ?? '?'} · ${call.domain ?? '?'} · tab ${call.tabId ?? '?'}`),
            element('span', ` ${Math.round(call.ms ?? 0)} ms · ${new Date(call.at).toLocaleTimeString()}`, 'muted'),
          );
          if (call.detail) item.append(element('div', call.detail, 'muted'));
          return item;
        })
      : [element('li', 'No calls yet.', 'muted')]),
  );
}

document.addEventListener('click', (event) => {
  const target = event.target;
  if (target instanceof HTMLButtonElement && target.id === 'pair') {
    void chrome.runtime.openOptionsPage();
    return;
  }
  if (target instanceof HTMLButtonElement && target.id === 'clear-activity') {
    void clearActivity().then(() => renderActivity(byId('activity')));
    return;
  }
  if (!(target instanceof HTMLButtonElement) || !target.dataset.site) return;
  const decision = target.dataset.decision === 'block' ? 'block' : 'allow';
  void ask({ type: 'popup/setSite', site: target.dataset.site, decision }).then((state) => state && render(state));
});

async function refresh(): Promise<void> {
  const state = await ask({ type: 'popup/state' });
  if (state) render(state);
  await renderActivity(byId('activity'));
}
void refresh();
setInterval(() => void refresh(), 1_000);
