import type { DebuggerSessions } from './debugger-sessions';

/** Frames nested deeper than this are not looked into (as background/frames.ts). */
const MAX_DEPTH = 8;
const WORLD = 'tabmcp upload';

type Send = (method: string, params?: Record<string, unknown>) => Promise<unknown>;
interface FrameTree {
  frame: { id: string };
  childFrames?: FrameTree[];
}

/**
 * Gives `files` to the file input a frame's script marked (docs/dom-tools.md, "Shadow DOM and
 * frames"): `DOM.setFileInputFiles` needs the node in its own document's session, and a frame of
 * another site runs in another process, which the tab's session does not reach. So the frames of
 * other processes are attached for the time of the upload (`Target.setAutoAttach`, flattened
 * sessions, each asked for its own frames too), and every frame of every session is searched in an
 * isolated world of its own (the page's scripts see nothing of it). The tab's own session is searched
 * too: a frame of another origin shares the page's process where the browser does not isolate it
 * (Chromium 156 here gives both another site and the same host on another port a process of their
 * own). The mark is random per upload; it must be found exactly once, else nothing is given.
 */
export async function uploadIntoFrame(
  debuggers: DebuggerSessions,
  tabId: number,
  marker: string,
  files: string[],
): Promise<void> {
  const children = await attachFrameSessions(debuggers, tabId);
  try {
    const found: Array<{ sessionId: string | undefined; objectId: string }> = [];
    for (const sessionId of [undefined, ...children]) {
      const send: Send = (method, params) => debuggers.send(tabId, method, params, sessionId);
      for (const objectId of await markedInputs(send, marker)) found.push({ sessionId, objectId });
    }
    const [only, other] = found;
    if (!only) throw new Error('the file input is gone from the frame');
    if (other) throw new Error('more than one file input carries the mark; no file was given');
    await debuggers.send(tabId, 'DOM.setFileInputFiles', { files, objectId: only.objectId }, only.sessionId);
  } finally {
    for (const sessionId of children)
      await debuggers.send(tabId, 'Target.detachFromTarget', { sessionId }).catch(() => {});
    await debuggers.send(tabId, 'Target.setAutoAttach', AUTO_ATTACH_OFF).catch(() => {});
  }
}

const AUTO_ATTACH_OFF = { autoAttach: false, waitForDebuggerOnStart: false, flatten: true };

/**
 * The sessions of the tab's frames of other processes, at any depth: the browser announces each
 * child as `setAutoAttach` is handled (Target.attachedToTarget), before its answer.
 */
async function attachFrameSessions(debuggers: DebuggerSessions, tabId: number): Promise<string[]> {
  const sessions: string[] = [];
  const asked: Array<Promise<unknown>> = [];
  const autoAttach = (sessionId: string | undefined) =>
    debuggers.send(tabId, 'Target.setAutoAttach', { ...AUTO_ATTACH_OFF, autoAttach: true }, sessionId);
  const stop = debuggers.onEvent((eventTab, method, params) => {
    if (eventTab !== tabId || method !== 'Target.attachedToTarget') return;
    const { sessionId, targetInfo } = params as { sessionId?: string; targetInfo?: { type?: string } };
    if (!sessionId || targetInfo?.type !== 'iframe' || sessions.length >= MAX_DEPTH * 8) return;
    sessions.push(sessionId);
    asked.push(autoAttach(sessionId).catch(() => {}));
  });
  try {
    await autoAttach(undefined);
    // Each child's own setAutoAttach may announce grandchildren: waited for until none is new.
    for (let seen = 0; seen < asked.length; ) {
      const batch = asked.slice(seen);
      seen = asked.length;
      await Promise.all(batch);
    }
  } finally {
    stop();
  }
  return sessions;
}

/** The marked file inputs in the frames a session holds, as remote objects of an isolated world. */
async function markedInputs(send: Send, marker: string): Promise<string[]> {
  const { frameTree } = (await send('Page.getFrameTree')) as { frameTree: FrameTree };
  const ids: string[] = [];
  const visit = (tree: FrameTree) => {
    ids.push(tree.frame.id);
    for (const child of tree.childFrames ?? []) visit(child);
  };
  visit(frameTree);
  const found: string[] = [];
  for (const frameId of ids) {
    // A frame this session lists but another process renders has no world here: skipped.
    const world = (await send('Page.createIsolatedWorld', { frameId, worldName: WORLD }).catch(() => undefined)) as
      | { executionContextId?: number }
      | undefined;
    if (world?.executionContextId === undefined) continue;
    const evaluated = (await send('Runtime.evaluate', {
      expression: findMarked(marker),
      contextId: world.executionContextId,
    }).catch(() => undefined)) as { result?: { objectId?: string; subtype?: string } } | undefined;
    if (evaluated?.result?.subtype === 'node' && evaluated.result.objectId) found.push(evaluated.result.objectId);
  }
  return found;
}

/** The input carrying the mark, through open shadow roots; only a file input counts. */
function findMarked(marker: string): string {
  return `(() => {
    const find = (root) => root.querySelector('input[type=file][data-tabmcp-upload="${marker}"]') ??
      [...root.querySelectorAll('*')].map((el) => el.shadowRoot && find(el.shadowRoot)).find(Boolean) ?? null;
    return find(document);
  })()`;
}
