import { type BrowserContext, chromium } from 'playwright-core';
import { chromiumArgs } from '../packages/server/src/launcher/chromium-args';

/** Headless Chromium through Playwright on `userDataDir`, with the unpacked extension at `extensionDir`. */
export function launchWithExtension(
  userDataDir: string,
  extensionDir: string,
  extraArgs: string[] = [],
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    // Playwright sets the profile and headless mode itself.
    args: [...chromiumArgs({ extensionDirs: [extensionDir] }), ...extraArgs],
  });
}
