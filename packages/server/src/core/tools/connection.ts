import { type CallToolResult, errorMessage } from '@tabmcp/protocol';
import { z } from 'zod';
import type { LaunchedBrowser } from '../browser-connection';
import { defineTool, errorResult, jsonResult, type Progress } from '../tool-definition';
import { extensionSilentAfterLaunch, LAUNCH_DISABLED, NO_BROWSER_FOUND, NO_BROWSER_INSTRUCTIONS } from '../tool-errors';
import type { ToolSession } from '../tool-session';

const connectBrowser = (launchByDefault: boolean) =>
  defineTool({
    name: 'connect_browser',
    offeredIn: ['DISCONNECTED'],
    transition: true,
    title: 'Connect to the browser',
    description:
      'Connect to the browser that runs the tabmcp extension. With launch=true, start a fresh Chromium with the extension if none is connected. Afterwards list_tabs and open_tab appear.',
    input: z
      .object({
        // The description says what launch does; the list is read often, so it is not said twice.
        launch: z.boolean().default(launchByDefault),
      })
      .strict(),
    handler: ({ launch }, session, progress) => connect(session, launch, progress),
  });

export const connectBrowserTool = connectBrowser(false);
/** `tabmcp --launch` (SessionOptions.launchByDefault): the same tool, launching unless told `launch: false`. */
export const connectOrLaunchBrowserTool = connectBrowser(true);

async function connect(session: ToolSession, launch: boolean, progress: Progress): Promise<CallToolResult> {
  const { connection, launcher, timings } = session;
  const problem = connection.linkProblem?.();
  // Nothing to wait for and nothing to launch: no browser can reach this process.
  if (problem && !connection.isUp) return jsonResult({ connected: false, error: problem }, true);
  if (!connection.isUp) {
    if (launch) {
      if (!launcher) return errorResult(LAUNCH_DISABLED);
      progress('Launching Chromium with the tabmcp extension');
      let launched: LaunchedBrowser | undefined;
      try {
        launched = await launcher.launch({ linkDroppedAt: session.linkDroppedAt });
      } catch (error) {
        return jsonResult({ connected: false, error: NO_BROWSER_FOUND, instructions: errorMessage(error) }, true);
      }
      progress('Waiting for the extension to connect');
      // A browser that dies before its extension dials in is reported at once, with its own reason.
      const outcome = await Promise.race([
        connection.waitUntilUp(timings.launchTimeoutMs),
        ...(launched ? [launched.exited] : []),
      ]);
      if (typeof outcome === 'string' && !connection.isUp)
        return jsonResult({ connected: false, error: outcome }, true);
      if (outcome === false)
        return errorResult(extensionSilentAfterLaunch(timings.launchTimeoutMs, connection.pairingProblem?.()));
    } else if (!(await connection.waitUntilUp(timings.connectGraceMs))) {
      // An extension that dialled in and was refused is the likeliest reason: say it first.
      const refused = connection.pairingProblem?.();
      return jsonResult(
        {
          connected: false,
          error: NO_BROWSER_FOUND,
          ...(refused ? { reason: refused } : {}),
          instructions: NO_BROWSER_INSTRUCTIONS,
        },
        true,
      );
    }
  }
  await session.attach();
  return jsonResult({ connected: true, browser: session.browser, tabCount: session.tabs.size });
}
