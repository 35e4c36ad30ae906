/**
 * A tab's requests as the browser reports them (chrome.webRequest, filtered by tab): what a page
 * still loads after its load event (RequireJS modules, the data an app fetches to render), for a
 * load's readiness (docs/dom-tools.md, "When open_tab answers"). Listened to only while an open_tab
 * or a navigation report waits, which only an agent's link asks for.
 *
 * A request stops holding the page's readiness once it is LONG_REQUEST_MS old: a long poll, a
 * server-sent event stream or a download a page keeps open would otherwise hold every answer to the
 * cap. WebSockets and beacons never hold it.
 */
export interface TabRequests {
  /** Resolves true once no request of the tab holds it, false at `deadline` (ms since the epoch). */
  quiet(tabId: number, deadline: number): Promise<boolean>;
  /** When the tab last began or ended a request that may leave code to run (ms since the epoch), or -Infinity. */
  lastActivity(tabId: number): number;
  /** When the tab last began or ended any request that holds it, images included (ms since the epoch), or -Infinity. */
  lastRequest(tabId: number): number;
  /** How many requests the tab began since `since` (ms since the epoch). */
  startedSince(tabId: number, since: number): number;
  /** What still holds the tab, as one short line for the agent, or undefined when nothing does. */
  holding(tabId: number): string | undefined;
  stop(): void;
}

/** A request older than this is a stream or a long poll, not part of the page's build-up. */
const LONG_REQUEST_MS = 1_000;
const NEVER_HOLDING = new Set<string>(['websocket', 'ping', 'csp_report']);
/**
 * What brings no code and no data to the page's scripts: it holds the page while it loads (an image
 * without a size of its own lays out at none until it arrived, and a link that is only that image
 * shows nothing), but its arrival leaves nothing to run, so it is no activity that the DOM's quiet
 * window counts from.
 */
const NOTHING_TO_RUN = new Set<string>(['image', 'font', 'media', 'stylesheet']);

/**
 * The browser's own fetch of a page's default icon, made for the tab after its load (a page that
 * names no icon): nothing in the page waits for it, so it never holds. Seen on every first page of a
 * browser (the icon is cached after it), where its end opened the DOM's 150 ms window and it was in
 * flight up to 120 ms on a loaded machine. Chromium reports it as the page's image, from the page's
 * origin, so the URL is all that tells it apart.
 */
function isDefaultIcon(details: chrome.webRequest.OnBeforeRequestDetails): boolean {
  if (details.type !== 'image' || details.frameId !== 0) return false;
  try {
    const url = new URL(details.url);
    return url.pathname === '/favicon.ico' && url.search === '' && url.origin === details.initiator;
  } catch {
    return false;
  }
}

interface InFlight {
  tabId: number;
  startedAt: number;
  /** Whether its start and end count as the tab's activity (see NOTHING_TO_RUN). */
  active: boolean;
}

export function watchTabRequests(now: () => number = Date.now): TabRequests {
  const inFlight = new Map<string, InFlight>();
  const starts: Array<{ tabId: number; at: number }> = [];
  const lastActivity = new Map<number, number>();
  const lastRequest = new Map<number, number>();
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  // Heard, never blocked: the listener returns no BlockingResponse.
  const onStart = (details: chrome.webRequest.OnBeforeRequestDetails): undefined => {
    if (details.tabId < 0 || NEVER_HOLDING.has(details.type) || isDefaultIcon(details)) return;
    const at = now();
    const active = !NOTHING_TO_RUN.has(details.type);
    inFlight.set(details.requestId, { tabId: details.tabId, startedAt: at, active });
    starts.push({ tabId: details.tabId, at });
    lastRequest.set(details.tabId, at);
    if (active) lastActivity.set(details.tabId, at);
    changed();
  };
  const onEnd = (details: { requestId: string }) => {
    const request = inFlight.get(details.requestId);
    if (!request) return;
    inFlight.delete(details.requestId);
    lastRequest.set(request.tabId, now());
    if (request.active) lastActivity.set(request.tabId, now());
    changed();
  };
  const filter = { urls: ['<all_urls>'] };
  chrome.webRequest.onBeforeRequest.addListener(onStart, filter);
  chrome.webRequest.onCompleted.addListener(onEnd, filter);
  chrome.webRequest.onErrorOccurred.addListener(onEnd, filter);

  const holdingNow = (tabId: number) =>
    [...inFlight.values()].filter((request) => request.tabId === tabId && now() - request.startedAt < LONG_REQUEST_MS);

  return {
    quiet(tabId, deadline) {
      return new Promise((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const finish = (quiet: boolean) => {
          clearTimeout(timer);
          listeners.delete(check);
          resolve(quiet);
        };
        // Woken by the tab's requests ending, by the oldest one turning long, and by the deadline: no fixed wait.
        const check = () => {
          const holding = holdingNow(tabId);
          if (holding.length === 0) return finish(true);
          const left = deadline - now();
          if (left <= 0) return finish(false);
          const oldest = Math.min(...holding.map((request) => request.startedAt));
          clearTimeout(timer);
          timer = setTimeout(check, Math.min(left, oldest + LONG_REQUEST_MS - now()));
        };
        listeners.add(check);
        check();
      });
    },
    lastActivity: (tabId) => lastActivity.get(tabId) ?? Number.NEGATIVE_INFINITY,
    lastRequest: (tabId) => lastRequest.get(tabId) ?? Number.NEGATIVE_INFINITY,
    startedSince: (tabId, since) => starts.filter((start) => start.tabId === tabId && start.at >= since).length,
    holding(tabId) {
      // Counted, not named: a URL is the page's own text, which no tabmcp field carries.
      const count = holdingNow(tabId).length;
      return count === 0 ? undefined : `${count} request${count === 1 ? '' : 's'} still loading`;
    },
    stop() {
      chrome.webRequest.onBeforeRequest.removeListener(onStart);
      chrome.webRequest.onCompleted.removeListener(onEnd);
      chrome.webRequest.onErrorOccurred.removeListener(onEnd);
      listeners.clear();
    },
  };
}
