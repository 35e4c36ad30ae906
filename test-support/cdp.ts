import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { waitFor } from './wait';

/** The DevTools port Chromium writes into its profile once it listens (`--remote-debugging-port=0`). */
export function devtoolsPortOf(profileDir: string, timeoutMs: number): Promise<string> {
  return waitFor(
    () => {
      try {
        return readFileSync(join(profileDir, 'DevToolsActivePort'), 'utf8').split('\n')[0];
      } catch {
        return undefined;
      }
    },
    timeoutMs,
    'DevToolsActivePort',
  );
}

/**
 * Playwright over CDP into the browser a tabmcp process launched (its profile is in the process's
 * log), for checks that do not go through tabmcp.
 */
export async function browserLaunchedBy(stderr: () => string): Promise<Browser> {
  const profileDir = await waitFor(
    () => /"profileDir":"([^"]+)"/.exec(stderr())?.[1],
    10_000,
    'the launched browser profile',
  );
  const devtoolsPort = await devtoolsPortOf(profileDir, 10_000);
  return chromium.connectOverCDP(`http://127.0.0.1:${devtoolsPort}`);
}

/** The first page of the browser whose URL contains `part`, once there is one. */
export async function pageWithUrl(browser: Browser, part: string, timeoutMs = 10_000): Promise<Page> {
  return waitFor(
    () =>
      browser
        .contexts()
        .flatMap((context) => context.pages())
        .find((page) => page.url().includes(part)),
    timeoutMs,
    `a page at ${part}`,
  );
}
