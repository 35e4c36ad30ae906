import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_BROWSER_LINK_PORT } from '@tabmcp/protocol';
import { type LogLevel, parseLogLevel } from './log';
import { parseArgs } from './node-util';

export interface CliOptions {
  launch: boolean;
  headless: boolean;
  port: number;
  browserPath: string | undefined;
  extensionDir: string;
  token: string | undefined;
  followFocus: boolean;
  startUrl: string | undefined;
  /** Also list list_page_tools and call_page_tool, for clients that ignore tools/list_changed. */
  fallbackTools: boolean;
  /** Serve MCP over Streamable HTTP on this loopback port instead of stdio. */
  httpPort: number | undefined;
  /** `tabmcp pair`: print the pairing token and the steps to pair a Chrome; `extension`: install it for Chrome. */
  command: 'serve' | 'pair' | 'extension';
  /** `focused` (default): the focused tab's tools; `all`: every tab's tools under hub names too. */
  view: 'focused' | 'all';
  /** Remote mode (docs/remote.md): the browser is reached through this proxy; TABMCP_TOKEN is the JWT. */
  proxy: string | undefined;
  /** With --proxy: connect to the browser of this name, or of this id (list_extensions). */
  browserName: string | undefined;
  extensionId: string | undefined;
  /** With --proxy: read the JWT from this file at every (re)connect, so a refreshed token is picked up. */
  tokenFile: string | undefined;
  help: boolean;
  version: boolean;
  /** Ids of our extension besides the dev build's (a store or zip copy): --allow-extension-id, TABMCP_EXTENSION_IDS. */
  extraExtensionIds: string[];

  /** Issue 11: join the browser at the first tools/list, for clients that start a process per call. */
  autoConnect: boolean;
  logLevel: LogLevel | 'silent';
  /** How the extension acts on pages (docs/dom-tools.md, "Trusted input"); undefined: its options page decides. */
  input: InputModeOption | undefined;
  /**
   * Consequential actions (payments, deletions, sending, …; docs/user-guide.md, "Asking before it
   * matters"): ask the person, allow, or deny. Undefined: allow under automation (--launch,
   * --headless), else the extension's options page decides (ask by default).
   */
  confirm: ConfirmModeOption | undefined;
}

type ConfirmModeOption = 'ask' | 'allow' | 'deny';

type InputModeOption = 'auto' | 'trusted' | 'synthetic';

export const USAGE = `tabmcp: an MCP server (stdio) that gives agents the tools of your browser tabs.

Usage: tabmcp [options]
       tabmcp pair          print the pairing token and how to pair your own Chrome, and the
                            HTTP client setup (with --http PORT: for that port)
       tabmcp extension     install the extension for your own Chrome into ~/.tabmcp/extension/<version>
                            and say how to load it

  --launch             start Chromium with the extension at the first connect_browser (not at start,
                       so a client that only lists the tools starts no browser)
  --headless           launch without a window (automatic on Linux with no DISPLAY/WAYLAND_DISPLAY)
  --browser PATH       Chromium/Chrome to launch (default: CHROME_PATH, then the usual paths)
  --port N             local WebSocket port for the extension (default ${DEFAULT_BROWSER_LINK_PORT})
  (the pairing token: TABMCP_TOKEN in the environment, else kept in $TABMCP_HOME/pairing-token)
  --extension DIR      the built extension to load (default: the one inside this tabmcp package)
  --open URL           first page of a launched browser
  --follow-focus       follow the tab the user activates in the browser
  --fallback-tools     for clients that ignore list_changed: list every core tool in every state,
                       plus list_page_tools and call_page_tool for the focused tab's tools
  --view focused|all   focused (default): the focused tab's tools; all: also every tab's tools as
                       website_tool_<domain>_tab<N>_<name>, routed to the best tab by the extension
  --http PORT          serve MCP over Streamable HTTP on 127.0.0.1:PORT (path /mcp) instead of stdio.
                       Clients send "Authorization: Bearer <token>": at start tabmcp prints the token
                       and the setup of Claude Code, Cursor and VS Code (so does \`tabmcp pair\`), e.g.
                       claude mcp add --transport http tabmcp http://127.0.0.1:PORT/mcp \\
                         --header "Authorization: Bearer <token>"
                       A 2025-11-25 (or older) client gets a session of its own (focus, tools);
                       2026-07-28 clients, which have no sessions, share one view of every tab
  --allow-extension-id ID
                       also accept the tabmcp extension under this id (repeatable): a copy from the
                       Chrome Web Store or the release zip has another id than the dev build

  --auto-connect       connect to the browser already running with the extension (or owned by another
                       tabmcp) at the first tools/list, waiting up to 8 s: for clients that start a
                       new process per call. Launches nothing; implies --view all unless --view is given
  --input auto|trusted|synthetic
                       how pages are acted on: auto (the extension's default) sends synthetic events
                       and the browser's own input (chrome.debugger; Chrome shows a "started
                       debugging" bar meanwhile) where an action needs it, and answers dialogs;
                       trusted always uses the browser's input; synthetic never attaches the debugger
                       (dialogs are then reported, not answered)
  --confirm ask|allow|deny
                       consequential actions (a payment, a deletion, sending or publishing, a transfer,
                       an upload, accepting a confirm dialog): ask shows the person a prompt in the
                       browser first, allow runs them (the answer says so), deny refuses them. Without
                       it the extension's options page decides (ask by default); with --launch or
                       --headless tabmcp sends allow, so automation runs unattended
  --log-level LEVEL    error, warn, info (default) or debug (one line per MCP message), on stderr
  -h, --help           this text
  -v, --version        print the version

Several tabmcp processes share one browser: the first owns the port, later ones join it.

Remote browser through a proxy (docs/remote.md):
  --proxy URL          ws:// or wss:// address of a tabmcp proxy; TABMCP_TOKEN is then its access token
                       (a JWT; or set TABMCP_PROXY_TOKEN). Not needed when the token given by
                       --token-file or TABMCP_PROXY_TOKEN carries a connection_url claim
  --token-file PATH    read the proxy token from this file at every (re)connect (for rotated tokens)
  --browser-name NAME  connect to the browser of this name (default: the only or first one)
  --extension-id ID    connect to the browser of this id from the proxy's list_extensions
Environment:
  CHROME_PATH          the browser to launch when --browser is not given
  TABMCP_HOME          where the pairing token is kept (default ~/.tabmcp)
  TABMCP_PROXY_TOKEN   the proxy access token for --proxy
  TABMCP_BROWSER_ARGS  extra Chromium flags for a launched browser (e.g. --remote-debugging-port=0)
  TABMCP_PROFILE_ROOT  where a launched browser's temporary profile goes (default: /dev/shm on Linux
                       when it has 1 GiB free, else the temp dir)
  TABMCP_EXTENSION_IDS more ids to accept, comma-separated (like --allow-extension-id)
  TABMCP_LOG_LEVEL     the log level when --log-level is not given
  TABMCP_LOG=silent    no log lines on stderr (unless a log level is given)
Logs go to stderr; stdout carries the MCP protocol.`;

/** A command-line mistake, said in one line (parseArgs's own messages are long and name its internals). */
export function usageProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // parseArgs adds advice about `--` that fits a script's arguments, not tabmcp's.
  return message.replace(/\. To specify a positional argument[\s\S]*$/, '.');
}

function defaultExtensionDir(): string {
  // The build copies the extension into the package's dist/ (scripts/build.mjs), so an installed
  // tabmcp finds it as a checkout does; src/ and dist/ both sit one level below the package.
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'extension');
}

const EXTENSION_ID_SHAPE = /^[a-p]{32}$/;

function parseExtensionIds(fromFlags: string[], fromEnv: string | undefined): string[] {
  const ids = [...fromFlags, ...(fromEnv?.split(',') ?? [])].map((id) => id.trim()).filter(Boolean);
  for (const id of ids) {
    if (!EXTENSION_ID_SHAPE.test(id))
      throw new Error(
        `--allow-extension-id / TABMCP_EXTENSION_IDS: "${id}" is not an extension id (32 letters a-p; chrome://extensions shows it under the extension)`,
      );
  }
  return [...new Set(ids)];
}

/**
 * The token never comes from the command line: /proc/<pid>/cmdline shows it to every local user
 * (issue 26). `--token` is still parsed, only to say where the token goes now.
 */
function tokenFrom(flag: string | undefined): string | undefined {
  if (flag !== undefined) {
    throw new Error(
      '--token is no longer accepted: a command line is visible to every user of this machine. Put the token in ' +
        'the environment instead (TABMCP_TOKEN=<token> tabmcp …), or for --proxy in a file (--token-file PATH) or ' +
        'TABMCP_PROXY_TOKEN. Without it, tabmcp uses the pairing token kept in $TABMCP_HOME/pairing-token.',
    );
  }
  return process.env.TABMCP_TOKEN || undefined;
}

export function parseCliOptions(argv: string[]): CliOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      launch: { type: 'boolean', default: false },
      headless: { type: 'boolean', default: false },
      port: { type: 'string' },
      browser: { type: 'string' },
      extension: { type: 'string' },
      token: { type: 'string' },
      open: { type: 'string' },
      'follow-focus': { type: 'boolean', default: false },
      'fallback-tools': { type: 'boolean', default: false },
      http: { type: 'string' },
      view: { type: 'string' },
      proxy: { type: 'string' },
      'browser-name': { type: 'string' },
      'extension-id': { type: 'string' },
      'token-file': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', short: 'v', default: false },
      'allow-extension-id': { type: 'string', multiple: true },

      'auto-connect': { type: 'boolean', default: false },
      'log-level': { type: 'string' },
      input: { type: 'string' },
      confirm: { type: 'string' },
    },
  });
  const port = values.port === undefined ? DEFAULT_BROWSER_LINK_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`--port must be a port number, got ${values.port}`);
  const httpPort = values.http === undefined ? undefined : Number(values.http);
  if (httpPort !== undefined && (!Number.isInteger(httpPort) || httpPort < 0 || httpPort > 65_535))
    throw new Error(`--http must be a port number, got ${values.http}`);
  const [command, ...extra] = positionals;
  if ((command !== undefined && command !== 'pair' && command !== 'extension') || extra.length > 0)
    throw new Error(
      `Unknown command "${positionals.join(' ')}": the commands are \`tabmcp pair\` and \`tabmcp extension\`.`,
    );
  return {
    launch: values.launch ?? false,
    headless: values.headless ?? false,
    port,
    browserPath: values.browser,
    extensionDir: values.extension ? resolve(values.extension) : defaultExtensionDir(),
    token: tokenFrom(values.token),
    followFocus: values['follow-focus'] ?? false,
    startUrl: values.open,
    fallbackTools: values['fallback-tools'] ?? false,
    httpPort,
    command: command === 'pair' || command === 'extension' ? command : 'serve',
    // A process per call has no focus to keep between calls: page tools must be callable by hub name.
    view: parseView(values.view ?? (values['auto-connect'] ? 'all' : 'focused')),
    proxy: parseProxyUrl(values.proxy),
    browserName: values['browser-name'],
    extensionId: values['extension-id'],
    tokenFile: values['token-file'] ? resolve(values['token-file']) : undefined,
    help: values.help ?? false,
    version: values.version ?? false,
    extraExtensionIds: parseExtensionIds(values['allow-extension-id'] ?? [], process.env.TABMCP_EXTENSION_IDS),

    autoConnect: values['auto-connect'] ?? false,
    logLevel: parseLogLevel(values['log-level']),
    input: parseInputMode(values.input),
    confirm: parseConfirmMode(values.confirm),
  };
}

function parseView(value: string | undefined): 'focused' | 'all' {
  if (value === undefined || value === 'focused' || value === 'all') return value ?? 'focused';
  throw new Error(`--view must be focused or all, got ${value}`);
}

function parseInputMode(value: string | undefined): InputModeOption | undefined {
  if (value === undefined || value === 'auto' || value === 'trusted' || value === 'synthetic') return value;
  throw new Error(`--input must be auto, trusted or synthetic, got ${value}`);
}

function parseConfirmMode(value: string | undefined): ConfirmModeOption | undefined {
  if (value === undefined || value === 'ask' || value === 'allow' || value === 'deny') return value;
  throw new Error(`--confirm must be ask, allow or deny, got ${value}`);
}

/**
 * What the agent tells the extension about consequential actions: its --confirm, else allow when it
 * is automation (a browser it launches, or headless), where nobody would see a prompt.
 */
export function confirmModeFor(
  options: Pick<CliOptions, 'confirm' | 'launch' | 'headless'>,
): ConfirmModeOption | undefined {
  return options.confirm ?? (options.launch || options.headless ? 'allow' : undefined);
}

function parseProxyUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^wss?:\/\/[^\s/]+/.test(value)) throw new Error(`--proxy must be a ws:// or wss:// URL, got ${value}`);
  return value.replace(/\/+$/, '');
}
