import type { DescribedCall, Tool } from '@tabmcp/protocol';
import type { DomTool } from './dom-tool';
import { callInFrame, describeInFrame, toolsOfFrame } from './frame-link';
import type { Handles } from './handles';
import { NameRegistry } from './text';

/** A frame's tools that stay its own: the page's read, links, `act` and `scroll` reach into the frame already. */
const PAGE_WIDE = new Set(['get_page_content', 'open_link', 'act', 'scroll']);

/** Only the frame's own tools, as it answers `tools` to its parent (frame-service.ts). */
export function toolsForParent(tools: Tool[]): Tool[] {
  return tools.filter((tool) => !PAGE_WIDE.has(tool.name));
}

/**
 * The derived tools of a page's frames of another origin, in the page's own list (docs/dom-tools.md,
 * "Shadow DOM and frames"): each frame of an allowed site is asked for its tools (`fill_card_number`,
 * `click_pay`), named beside the page's (a clash gets `_2`), described as the frame's, and a call of
 * one runs in that frame's script. The list comes after the page's own derivation, asynchronously.
 */
export class FrameTools {
  #entries: Array<{ entry: DomTool; frame: Element; name: string }> = [];
  /** Only the newest update is kept: an older answer that comes late is dropped. */
  #generation = 0;
  #newest: Promise<void> = Promise.resolve();
  /** The frames whose document or script was not there yet at the last update. */
  #loading = new Set<Element>();

  /** Whether any of `frames` was still loading when last asked: it says so as its script starts. */
  loading(frames: Element[]): boolean {
    return frames.some((frame) => this.#loading.has(frame));
  }

  get entries(): DomTool[] {
    return this.#entries.map(({ entry }) => entry);
  }

  /**
   * Asks `frames` for their tools, named around `taken` (the page compares its list before and after).
   * Resolves once the newest update is in: an answer waiting on an older one (an action's) gets the
   * list a newer one (a frame's `changed`, come meanwhile) made, never the list from before both.
   */
  update(frames: Element[], handles: Pick<Handles, 'of'>, taken: Iterable<string>): Promise<void> {
    const generation = ++this.#generation;
    this.#newest = this.#ask(generation, frames, handles, taken);
    return this.#newest;
  }

  async #ask(generation: number, frames: Element[], handles: Pick<Handles, 'of'>, taken: Iterable<string>) {
    const lists = await Promise.all(frames.map(async (frame) => ({ frame, list: await toolsOfFrame(frame, handles) })));
    if (generation !== this.#generation) return this.#newest;
    this.#loading = new Set(lists.filter(({ list }) => list === 'loading').map(({ frame }) => frame));
    const names = new NameRegistry(taken);
    this.#entries = lists.flatMap(({ frame, list }) =>
      (typeof list === 'object' ? list.tools : []).map((tool) => {
        const name = names.claim(tool.name);
        const origin = typeof list === 'object' ? list.origin : '';
        const entry: DomTool = {
          tool: { ...tool, name, description: `In the frame of ${origin}: ${tool.description ?? ''}` },
          isLive: () => frame.isConnected,
          run: (args) => callInFrame(frame, tool.name, args, name),
        };
        return { entry, frame, name: tool.name };
      }),
    );
  }

  /** What a call of one of these tools would act on, read by its frame; undefined for a name that is not one. */
  describe(name: unknown, args: Record<string, unknown>): Promise<DescribedCall> | undefined {
    const found = this.#entries.find(({ entry }) => entry.tool.name === name);
    return found ? describeInFrame(found.frame, found.name, args) : undefined;
  }
}
