import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EXTENSION_ORIGIN } from '@tabmcp/protocol';
import { autoConnect } from './auto-connect';
import { BrowserSession } from './core/session';
import { installExtension, installedExtensionText } from './install-extension';
import { ChromiumLauncher } from './launcher/chromium-launcher';
import { SharedBrowserLink } from './link/shared-link';
import { createLogger } from './log';
import { serveStdioBothEras } from './mcp/serve-stdio';
import { type CliOptions, confirmModeFor, parseCliOptions, USAGE, usageProblem } from './options';
import { pairingInstructions } from './pair-command';
import { loadOrCreateToken } from './pairing';
import { impliedProxyUrl } from './proxy-client/token-claims';
import { TABMCP_VERSION } from './version';
import { AllView } from './views/all-view';

/** When this process joined another tabmcp, --launch starts a browser only if none is connected yet. */

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseCliOptions(process.argv.slice(2));
  } catch (error) {
    // The cause and where to look; the whole help would bury the one line that matters.
    process.stderr.write(`tabmcp: ${usageProblem(error)}\nRun \`tabmcp --help\` for the options.\n`);
    process.exit(2);
  }
  // Asked-for output goes to stdout; this process is not serving MCP then.
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (options.version) {
    process.stdout.write(`${TABMCP_VERSION}\n`);
    return;
  }
  const proxy = options.proxy ?? impliedProxyUrl(options.tokenFile);
  if (proxy !== undefined) {
    // Loaded on demand: a default run keeps the proxy client (and the HTTP transport) out of memory.
    const { runProxyClient } = await import('./proxy-client/run-proxy-client');
    await runProxyClient({ ...options, proxy }, createLogger(options.logLevel));
    return;
  }
  const token = options.token ?? loadOrCreateToken();
  if (options.command === 'pair' || options.command === 'extension') {
    // Chrome loads the extension from a folder of the user's, not from npx's cache (install-extension.ts).
    const installed = installExtension(options.extensionDir);
    process.stdout.write(
      options.command === 'extension'
        ? installedExtensionText(installed)
        : pairingInstructions(options.port, token, installed.dir, options.httpPort),
    );
    return;
  }
  const log = createLogger(options.logLevel);
  if (!existsSync(join(options.extensionDir, 'manifest.json'))) {
    log('extension.missing', {
      extensionDir: options.extensionDir,
      fix: 'in a checkout, run `npm run build`; otherwise reinstall tabmcp',
    });
  }
  const confirmMode = confirmModeFor(options);
  if (options.confirm === undefined && confirmMode === 'allow')
    log('confirm.automation', {
      note: 'consequential actions (payments, deletions, sending, uploads, accepting a confirm) run without asking the person, because --launch/--headless is automation; pass --confirm ask to be asked in the browser',
    });
  const allowedOrigins = [EXTENSION_ORIGIN, ...options.extraExtensionIds.map((id) => `chrome-extension://${id}`)];
  const link = new SharedBrowserLink({ port: options.port, token, allowedOrigins, log });
  // The link server starts on first need (a real session), not at process start: a 2.x client in auto
  // mode probes server/discover on a sibling tabmcp it then kills, and that process must start nothing.
  let linkStarted: Promise<void> | undefined;
  const startLink = () => {
    linkStarted ??= link.start().then(
      () => log('link.ready', { role: link.role, url: `ws://127.0.0.1:${link.server?.port ?? options.port}` }),
      (error: unknown) => {
        log('link.listen-failed', { message: String(error) });
        process.exit(1);
      },
    );
    return linkStarted;
  };
  const launcher = new ChromiumLauncher({
    browserPath: options.browserPath,
    extensionDir: options.extensionDir,
    // Read at launch, after the link started (tool calls wait for it): with --port 0 only then is it known.
    get linkPort() {
      return link.server?.port ?? options.port;
    },
    token,
    headless: options.headless,
    startUrl: options.startUrl,
    log,
  });
  const newSession = (viewName = options.view) => {
    const endpoint = link.createEndpoint();
    endpoint.inputMode = options.input;
    endpoint.confirmMode = confirmMode;
    const session = new BrowserSession({
      connection: endpoint,
      launcher,
      followBrowserFocus: options.followFocus,
      fallbackTools: options.fallbackTools,
      launchByDefault: options.launch,
      log,
    });
    const view = viewName === 'all' ? new AllView(session, endpoint, { log }) : session;
    return { session: view, endpoint, release: () => link.releaseEndpoint(endpoint) };
  };

  let stopping = false;
  let closeHttp: (() => Promise<void>) | undefined;
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    log('server.stopping', { reason });
    await launcher.stop();
    await closeHttp?.();
    await link.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const first = newSession();
  if (options.httpPort !== undefined) {
    await startLink();
    const { MCP_PATH, serveHttp } = await import('./mcp/serve-http');
    const { httpBearerToken } = await import('./mcp/http-token');
    const bearerToken = httpBearerToken(token);
    const http = await serveHttp({
      port: options.httpPort,
      bearerToken,
      newSession: () => newSession(),
      newSharedView: () => newSession('all').session,
      log,
    }).catch((error: unknown) => exitOnTakenPort(error, options.httpPort ?? 0, '--http'));
    closeHttp = http.close;
    const url = `http://127.0.0.1:${http.port}${MCP_PATH}`;
    log('http.listening', { url });
    // stdout carries no protocol over HTTP: what to paste into the MCP client, header included.
    const { httpClientSetup } = await import('./http-client-setup');
    process.stdout.write(httpClientSetup(url, bearerToken));
  } else {
    process.stdin.on('end', () => void shutdown('stdin closed'));
    const { session: view, endpoint } = first;
    serveStdioBothEras(view, {
      log,
      fallbackTools: options.fallbackTools,
      onsession: startLink,
      beforeTools: options.autoConnect
        ? autoConnect({
            view,
            link: endpoint,
            listHubTools: view instanceof AllView ? () => view.listHubTools() : undefined,
            log,
          })
        : undefined,
      onclose: () => void shutdown('MCP transport closed'),
    });
  }
  // --launch starts Chromium at the first connect_browser, not now (session.ts, launchByDefault): a client
  // that only initializes and lists the tools (a health check, a protocol probe) starts no browser.
  // Over HTTP each 2025-era client gets its own session; the first one only served to decide --launch.
  if (options.httpPort !== undefined) first.release();
}

/** A port another program holds is an expected condition: one line with the cause and the way out. */
function exitOnTakenPort(error: unknown, port: number, flag: string): never {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    const cause = code === 'EADDRINUSE' ? 'is already in use by another program' : 'may not be used by this user';
    process.stderr.write(
      `tabmcp: port ${port} (${flag}) ${cause}. Pick another: ${flag} <port>, or ${flag} 0 for any free port.\n`,
    );
    process.exit(1);
  }
  throw error;
}

main().catch((error: unknown) => {
  process.stderr.write(`tabmcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
