import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_BROWSER_LINK_PORT } from '@tabmcp/protocol';

export interface CliOptions {
  launch: boolean;
  headless: boolean;
  port: number;
  browserPath: string | undefined;
  extensionDir: string;
  token: string | undefined;
  followFocus: boolean;
  startUrl: string | undefined;
  help: boolean;
}

export const USAGE = `tabmcp: an MCP server (stdio) that gives agents the tools of your browser tabs.

Usage: tabmcp [options]

  --launch             start Chromium with the extension now (connect_browser can also launch)
  --headless           launch without a window
  --browser PATH       Chromium/Chrome to launch (default: CHROME_PATH, then the usual paths)
  --port N             local WebSocket port for the extension (default ${DEFAULT_BROWSER_LINK_PORT})
  --token TOKEN        pairing token (default: kept in $TABMCP_HOME/pairing-token, ~/.tabmcp)
  --extension DIR      the built extension to load (default: this checkout's packages/extension/dist)
  --open URL           first page of a launched browser
  --follow-focus       follow the tab the user activates in the browser
  -h, --help           this text

Logs go to stderr; stdout carries the MCP protocol.`;

export function defaultExtensionDir(): string {
  // Both src/cli.ts and dist/tabmcp.js sit two levels below packages/.
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'extension', 'dist');
}

export function parseCliOptions(argv: string[]): CliOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      launch: { type: 'boolean', default: false },
      headless: { type: 'boolean', default: false },
      port: { type: 'string' },
      browser: { type: 'string' },
      extension: { type: 'string' },
      token: { type: 'string' },
      open: { type: 'string' },
      'follow-focus': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const port = values.port === undefined ? DEFAULT_BROWSER_LINK_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`--port must be a port number, got ${values.port}`);
  return {
    launch: values.launch ?? false,
    headless: values.headless ?? false,
    port,
    browserPath: values.browser,
    extensionDir: values.extension ? resolve(values.extension) : defaultExtensionDir(),
    token: values.token,
    followFocus: values['follow-focus'] ?? false,
    startUrl: values.open,
    help: values.help ?? false,
  };
}
