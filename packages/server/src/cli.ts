import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { EXTENSION_ORIGIN } from '@tabmcp/protocol';
import { BrowserSession } from './core/session';
import { ChromiumLauncher } from './launcher/chromium-launcher';
import { WebSocketBrowserLink } from './link/websocket-browser-link';
import { createLogger } from './log';
import { serveMcp } from './mcp/serve-mcp';
import { parseCliOptions, USAGE } from './options';
import { loadOrCreateToken } from './pairing';

async function main(): Promise<void> {
  let options: ReturnType<typeof parseCliOptions>;
  try {
    options = parseCliOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const log = createLogger();
  if (!existsSync(join(options.extensionDir, 'manifest.json'))) {
    log('extension.missing', { extensionDir: options.extensionDir, fix: 'run `npm run build` in the tabmcp checkout' });
  }
  const token = options.token ?? loadOrCreateToken();
  const link = new WebSocketBrowserLink({
    host: '127.0.0.1',
    port: options.port,
    allowedOrigins: [EXTENSION_ORIGIN],
    token,
    log,
  });
  let port: number;
  try {
    port = await link.start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === 'EADDRINUSE'
        ? `Port ${options.port} is in use (another tabmcp?). Start this one with --port <other> and pair the extension with it.`
        : String(error);
    log('link.listen-failed', { message });
    process.exit(1);
  }
  log('link.listening', { url: `ws://127.0.0.1:${port}` });
  const launcher = new ChromiumLauncher({
    browserPath: options.browserPath,
    extensionDir: options.extensionDir,
    linkPort: port,
    token,
    headless: options.headless,
    startUrl: options.startUrl,
    log,
  });
  const session = new BrowserSession({ connection: link, launcher, followBrowserFocus: options.followFocus, log });

  let stopping = false;
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    log('server.stopping', { reason });
    launcher.stop();
    await link.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.stdin.on('end', () => void shutdown('stdin closed'));

  const transport = new StdioServerTransport();
  transport.onclose = () => void shutdown('MCP transport closed');
  await serveMcp(session, transport);
  if (options.launch) {
    launcher.launch().catch((error: unknown) => log('browser.launch-failed', { message: String(error) }));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`tabmcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
