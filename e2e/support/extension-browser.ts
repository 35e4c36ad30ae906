import { type BrowserContext, chromium } from 'playwright-core';

/** Headless Chromium through Playwright on `userDataDir`, with the unpacked extension at `extensionDir`. */
export function launchWithExtension(
  userDataDir: string,
  extensionDir: string,
  extraArgs: string[] = [],
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      ...extraArgs,
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
    ],
  });
}
