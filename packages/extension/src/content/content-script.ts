// First: before any module that builds a zod schema (zod-jitless.ts).
import './zod-jitless';
import type { TabClient } from '@tabmcp/page';
import {
  jsonShapeProblem,
  type PageBrowserCapabilities,
  SETTLE_LOAD,
  SettleLoadParams,
  type SettleLoadResult,
  type Tool,
  Tool as ToolSchema,
  type ToolSource,
  validate,
} from '@tabmcp/protocol';
import { ErrorCode, isTabEnvelope, ProtocolError, withTimeout } from '@tabmcp/protocol/light';
import { BRIDGE_CHANNEL, BRIDGE_SLEEP_EVENT, LOOK_NOW_EVENT } from '../bridge/channel';
import { FRAME_CHANGED } from '../frame-messages';
import { SLEEP_MESSAGE } from '../page-injection-messages';
import { askForBridge } from './bridge-request';
import { relayDialogs } from './dialog-relay';
import { callForThisDocument, markedTools } from './document-check';
import { documentTagSettled } from './document-tag';
import { watchDomQuiet } from './dom-quiet';
import { type DomToolSource, scheduleDomTools, withReadingTools } from './dom-tools';
import { type Candidate, findPageServer } from './find-page-server';
import { serveFrameRequests } from './frame-service';
import { connectPort, type TabPort } from './port';
import { SentToolList, toolUpdates } from './tool-updates';

/**
 * The proxy of docs/requirements.md#hub, one per tab: finds where the page's tools come from, reports them to the
 * background over the tab's one Port, and relays calls. Runs in the isolated world; the page is
 * untrusted. A page with no server of its own gets DOM-derived tools first; when its own server
 * answers, the same Port switches to it (with get_page_content and open_link kept beside its
 * tools), so the background can never see the two out of order.
 */
/** Where a page's own tools may answer, in order of preference. */
const PAGE_SERVERS: Candidate[] = [
  { channel: 'mcp-default', source: 'mcp-b' },
  { channel: BRIDGE_CHANNEL, source: 'window.mcp' },
];
/**
 * Derived tools start once the page's servers had their turn to answer the handshake
 * (page-turn.ts), with no fixed wait; a server that speaks up later still takes precedence. This
 * only bounds that turn for a page that swallows the probe.
 */
const DOM_TOOLS_BOUND_MS = 150;
/** A page's server that has not listed its tools by then has failed: derived tools stand in. */
const LIST_TIMEOUT_MS = 5_000;

type PageNotificationMethod =
  | 'notifications/resources/list_changed'
  | 'notifications/resources/updated'
  | 'notifications/prompts/list_changed';
const PAGE_NOTIFICATIONS = new Set<string>([
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/prompts/list_changed',
]);

interface ToolOrigin {
  client: Pick<TabClient, 'request'>;
  source: ToolSource;
  capabilities?: PageBrowserCapabilities | undefined;
  /**
   * Derives the tools again, unless the last derivation stands (derived tools only: a page's own
   * server lists its own): it was made after the document's load, after `layoutChangedAt`
   * (performance.now() time) and after every change of the page since.
   */
  rederive?: (layoutChangedAt: number) => void;
  stop(): void;
}

/**
 * Runs the tab's proxy; returns how to end it (the Port closed, every observer and timer stopped).
 * `ended` is called once it ended, by that or by the Port giving up (the extension reloaded or gone).
 */
function main(ended: () => void): () => void {
  // A `window.mcp` already there is served before the handshake below asks for it.
  document.dispatchEvent(new CustomEvent(LOOK_NOW_EVENT));
  let origin: ToolOrigin | undefined;
  let port: TabPort | undefined;
  const sent = new SentToolList();
  // Watched from the start, so that a load's readiness knows when the page last changed.
  const domQuiet = watchDomQuiet(document);

  const publish = async (method: 'browser/registerTools' | 'browser/updateTools') => {
    const current = origin;
    if (!current) return;
    let tools: Tool[];
    try {
      tools = await listTools(current.client, current.source);
    } catch (error) {
      // A page's own server that cannot list its tools leaves the tab with the derived ones.
      if (current.source !== 'dom') pageServerGone(current, 0);
      throw error;
    }
    // The page's own server may have taken over while this list was on its way.
    if (origin !== current) return;
    // Each tool names this document, so a call made from this list never runs on the next page's.
    tools = markedTools(tools);
    if (!sent.record(tools) && method === 'browser/updateTools') return;
    port?.post(
      method === 'browser/registerTools'
        ? {
            jsonrpc: '2.0',
            method,
            params: {
              tools,
              tabUrl: location.href,
              source: current.source,
              ...(current.capabilities ? { capabilities: current.capabilities } : {}),
            },
          }
        : { jsonrpc: '2.0', method, params: { tools, source: current.source } },
    );
  };
  const register = () => void publish('browser/registerTools').catch(reportError);
  const updates = toolUpdates(() => void publish('browser/updateTools').catch(reportError));
  // Calls go to whichever origin is current when they arrive, once the document knows the letter
  // of its handles (the background sends it as the Port connects).
  const router: Pick<TabClient, 'request'> = {
    request: async (method, params) => {
      if (method === SETTLE_LOAD) return settleLoad(params);
      await documentTagSettled();
      if (method === 'tools/call')
        return callForThisDocument(params, (checked) => {
          if (!origin) throw new Error('This page has no tools yet');
          return origin.client.request(method, checked);
        });
      if (!origin) throw new Error('This page has no tools yet');
      return origin.client.request(method, params);
    },
  };
  /**
   * The background heard the load end and the tab's requests go quiet: once the DOM is quiet too
   * (or at the bound), the tools are derived again and published before the answer, so the list
   * open_tab gives is the one of the page as it stands, the same at every load.
   */
  const settleLoad = async (params: unknown): Promise<SettleLoadResult> => {
    const checked = validate(SettleLoadParams, params, 'settleLoad params');
    if (!checked.ok) throw checked.error;
    const { quietMs, maxWaitMs, networkAgoMs, requestsAgoMs } = checked.value;
    const quiet = await domQuiet.until(quietMs, maxWaitMs, networkAgoMs);
    // A derivation made since the page's last change and its last request is the ready page's: a large
    // page's derivation (about 100 ms for 10,000 elements) is not made twice for nothing.
    origin?.rederive?.(Math.max(domQuiet.lastChange(), performance.now() - requestsAgoMs));
    await publish('browser/updateTools');
    return { quiet };
  };
  let over = false;
  const shutDown = () => {
    if (over) return;
    over = true;
    domQuiet.stop();
    updates.stop();
    window.removeEventListener('message', onAnnouncement);
    domTools.cancel();
    const current = origin;
    origin = undefined;
    current?.stop();
    port?.close();
    ended();
  };

  const use = (next: ToolOrigin) => {
    origin?.stop();
    origin = next;
    if (port) register();
    else port = connectPort(router, register, shutDown);
  };

  /** Derived tools, unless a page's server on one of `channels` answers when its turn comes. */
  const scheduleDerived = (boundMs: number, channels: string[]) =>
    scheduleDomTools(
      boundMs,
      channels,
      (dom: DomToolSource) => {
        if (!origin)
          use({
            client: dom.server,
            source: 'dom',
            rederive: (layoutChangedAt) => {
              if (!dom.server.derivationStands(layoutChangedAt)) dom.server.refresh();
            },
            stop: dom.stop,
          });
        else dom.stop();
      },
      // After an action of its own, awaited before the answer: sent at once.
      () => publish('browser/updateTools').catch(reportError),
      // The page changed on its own: rate-limited per tab like the page's own list_changed.
      () => updates.changed(),
      reportError,
    );
  let domTools = scheduleDerived(
    DOM_TOOLS_BOUND_MS,
    PAGE_SERVERS.map(({ channel }) => channel),
  );

  // A server that starts after discovery gave up (a late `window.mcp`, an SDK loaded on demand), or
  // after the page stopped the one it had (an SPA that unmounts and mounts again), announces itself
  // with mcp-server-ready: look again then.
  let listening = false;
  const onAnnouncement = (event: MessageEvent) => {
    if (event.source !== window) return;
    const announced = PAGE_SERVERS.some(
      ({ channel }) =>
        isTabEnvelope(event.data, channel, 'server-to-client') && event.data.payload === 'mcp-server-ready',
    );
    if (!announced) return;
    window.removeEventListener('message', onAnnouncement);
    listening = false;
    discover();
  };
  const discoverLater = () => {
    if (listening) return;
    listening = true;
    window.addEventListener('message', onAnnouncement);
  };

  /**
   * The page stopped its server (mcp-server-stopped) or it failed: the tab keeps its Port and gets
   * derived tools, unless a new server speaks up first (a remount in the page's next turn); with
   * `boundMs` 0 at once.
   */
  const pageServerGone = (gone: ToolOrigin, boundMs: number) => {
    if (origin !== gone) return;
    origin = undefined;
    gone.stop();
    standIn(boundMs);
  };
  const standIn = (boundMs: number) => {
    domTools.cancel();
    domTools = scheduleDerived(boundMs, boundMs === 0 ? [] : PAGE_SERVERS.map(({ channel }) => channel));
    discoverLater();
  };

  const discover = () =>
    findPageServer(PAGE_SERVERS).then(
      (found) => {
        if (!found) {
          discoverLater();
          return;
        }
        domTools.cancel();
        const { client, source, capabilities } = found;
        client.onnotification = (notification) => {
          if (PAGE_NOTIFICATIONS.has(notification.method)) {
            port?.post({
              jsonrpc: '2.0',
              method: 'browser/pageNotification',
              params: {
                method: notification.method as PageNotificationMethod,
                ...(isRecord(notification.params) ? { params: notification.params } : {}),
              },
            });
          } else if (notification.method === 'notifications/tools/list_changed') {
            updates.changed();
          }
        };
        // Beside the page's own tools, the agent can still read the page and follow its links.
        const pageServer: ToolOrigin = {
          client: withReadingTools(client, document),
          source,
          capabilities,
          stop: () => client.close('Replaced'),
        };
        client.onclose = () => pageServerGone(pageServer, DOM_TOOLS_BOUND_MS);
        use(pageServer);
      },
      (error: unknown) => {
        // A server that answered the handshake but not initialize has failed: derived tools stand in.
        reportError(error);
        if (origin) discoverLater();
        else standIn(0);
      },
    );
  discover();
  return shutDown;
}

async function listTools(client: Pick<TabClient, 'request'>, source: ToolSource): Promise<Tool[]> {
  const result = (await withTimeout(client.request('tools/list'), {
    timeoutMs: LIST_TIMEOUT_MS,
    onTimeout: () => {
      throw new ProtocolError(ErrorCode.RequestTimeout, `The page's ${source} server did not list its tools`);
    },
  })) as { tools?: unknown };
  if (!Array.isArray(result?.tools)) throw new Error(`The page's ${source} server returned no tool list`);
  // One malformed tool must not hide the page's other tools: drop it here with its reason.
  return result.tools.flatMap((raw: unknown) => {
    // A cyclic or very deep schema would make the whole list fail to serialize: drop that tool alone.
    const shape = jsonShapeProblem(raw);
    if (shape) {
      reportError(`A page tool was dropped: ${shape}`);
      return [];
    }
    const checked = validate(ToolSchema, raw, 'page tool');
    if (checked.ok) return [checked.value];
    reportError(checked.error);
    return [];
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function reportError(error: unknown): void {
  console.debug('[tabmcp]', error instanceof Error ? error.message : error);
}

/**
 * The background injects this script only while an agent is connected (registered for new
 * documents, executed into open ones: background/page-injection.ts), and tells it to sleep when the
 * last agent leaves: it then ends everything it runs, and the MAIN-world bridge with it. Injected
 * again later, it starts afresh in the same isolated world; injected twice while awake, it does
 * not double up. The marker lives in the isolated world, which the page cannot see.
 */
const marker = Symbol.for('tabmcp.content');
const scope = globalThis as { [marker]?: 'awake' | 'asleep' };

async function wake(): Promise<void> {
  const stopFrames = serveFrameRequests();
  const stopRelay = relayDialogs();
  // The bridge, when the site is allowed, is in the page before its tools are looked for.
  await askForBridge();
  const onMessage = (message: unknown) => {
    if ((message as { type?: unknown } | null)?.type === SLEEP_MESSAGE) shutDown();
  };
  const shutDown = main(() => {
    try {
      chrome.runtime.onMessage.removeListener(onMessage);
    } catch {
      // The extension was reloaded or removed: its listeners went with it.
    }
    stopRelay();
    stopFrames();
    document.dispatchEvent(new CustomEvent(BRIDGE_SLEEP_EVENT));
    scope[marker] = 'asleep';
  });
  chrome.runtime.onMessage.addListener(onMessage);
}

/**
 * A sub-frame's script opens no Port, publishes no tools and gets no bridge: it answers its
 * parent's requests through the background (frame-service.ts) until the agents leave.
 */
function wakeInFrame(): void {
  const stopFrames = serveFrameRequests();
  // Its parent may have asked before this script ran (a frame loads after its page): it asks again now.
  void chrome.runtime.sendMessage({ type: FRAME_CHANGED }).catch(() => {});
  const onMessage = (message: unknown) => {
    if ((message as { type?: unknown } | null)?.type !== SLEEP_MESSAGE) return;
    stopFrames();
    chrome.runtime.onMessage.removeListener(onMessage);
    scope[marker] = 'asleep';
  };
  chrome.runtime.onMessage.addListener(onMessage);
}

if (scope[marker] !== 'awake') {
  scope[marker] = 'awake';
  if (window === window.top) void wake().catch(reportError);
  else wakeInFrame();
}
