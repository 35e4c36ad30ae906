// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import * as z from 'zod/mini';

/**
 * How the extension acts on pages (docs/dom-tools.md, "Trusted input"): `synthetic` dispatches
 * events from the content script and never attaches the debugger; `trusted` sends every action as
 * the browser's own input (chrome.debugger, CDP Input.*); `auto` uses synthetic events first and
 * trusted input where an action needs it (hover, double-click, drag, upload, typing into a
 * combobox) and to answer native dialogs.
 */
export const InputMode = z.enum(['auto', 'trusted', 'synthetic']);
export type InputMode = z.infer<typeof InputMode>;

/**
 * The tool name by which the server's handle_dialog reaches the extension through callTool. The
 * extension answers it itself, before any page tool is looked up, so no page can stand in for it.
 */
export const HANDLE_DIALOG_CALL = 'tabmcp/handle_dialog';
