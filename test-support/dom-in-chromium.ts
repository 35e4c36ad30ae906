import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Page } from 'playwright-core';
import { chromiumArgs } from '../packages/server/src/launcher/chromium-args';
import { repoRoot } from './paths';

/**
 * `contents` (TypeScript importing from packages/extension/src/content) bundled as the content script is: one
 * IIFE to add to a page with `addScriptTag`.
 */
export async function contentBundle(contents: string): Promise<string> {
  const result = await build({
    stdin: { contents, resolveDir: join(repoRoot, 'packages', 'extension', 'src', 'content'), loader: 'ts' },
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

/**
 * The DOM analysis needs layout (visibility, computed styles, hover rules), which only a browser
 * has: these tests load a page into headless Chromium and run the extension's own DomToolServer
 * on it, bundled as the content script bundles it, exposed as `window.__domTools`.
 */
let bundled: Promise<string> | undefined;
function domToolsBundle(): Promise<string> {
  bundled ??= contentBundle(
    "import { DomToolServer } from './dom-tools/dom-tool-server';\n(globalThis as Record<string, unknown>).__domTools = { DomToolServer };",
  );
  return bundled;
}

export interface DomHarness {
  /** Opens `html` (or a file) and returns the tools and first page of get_page_content. */
  derive(page: Page): Promise<{
    tools: Array<{ name: string; inputSchema: unknown; description?: string }>;
    content: string;
    ms: number;
  }>;
  /** Adds the bundle (`window.__domTools`) to the page without deriving anything. */
  load(page: Page): Promise<void>;
  /**
   * A blank page: the one the last call returned, navigated to about:blank (a new document and window, so
   * nothing of the last test's page is left), or a new one if that one was closed. A new tab per test cost
   * a renderer process's start each, ~0.25 s of CPU and ~0.5 s on this 2-core machine.
   */
  page(): Promise<Page>;
  close(): Promise<void>;
}

export async function startDomHarness(): Promise<DomHarness> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs() });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const script = await domToolsBundle();
  let last: Page | undefined;
  return {
    page: async () => {
      if (last && !last.isClosed()) await last.goto('about:blank');
      else last = await context.newPage();
      return last;
    },
    load: async (page) => {
      await page.addScriptTag({ content: script });
    },
    derive: async (page) => {
      await page.addScriptTag({ content: script });
      return page.evaluate(async () => {
        type Server = {
          tools: Array<{ name: string; inputSchema: unknown; description?: string }>;
          call(name: string, args: Record<string, unknown>): Promise<{ content: Array<{ text: string }> }>;
        };
        const { DomToolServer } = (
          globalThis as unknown as { __domTools: { DomToolServer: new (doc: Document) => Server } }
        ).__domTools;
        const started = performance.now();
        const server = new DomToolServer(document);
        const tools = server.tools;
        const ms = performance.now() - started;
        const content = (await server.call('get_page_content', {})).content[0]?.text ?? '';
        return { tools, content, ms };
      });
    },
    close: () => browser.close(),
  };
}

/**
 * Calls a derived tool on one DomToolServer kept on the page (`window.__server`), so handles hold
 * from one call to the next; the page must have the bundle (`derive` or `load`).
 */
export function callDomTool(
  page: Page,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean }> {
  return page.evaluate(
    async ([name, args]) => {
      const global = globalThis as unknown as {
        __domTools: { DomToolServer: new (doc: Document) => unknown };
        __server?: unknown;
      };
      global.__server ??= new global.__domTools.DomToolServer(document);
      const server = global.__server as {
        call(name: string, args: unknown): Promise<{ content: Array<{ text: string }>; isError?: boolean }>;
      };
      const result = await server.call(name as string, args);
      return { text: result.content[0]?.text ?? '', isError: result.isError === true };
    },
    [name, args] as const,
  );
}
