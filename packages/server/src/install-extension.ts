import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tabmcpHome } from './pairing';
import { TABMCP_VERSION } from './version';

export interface InstalledExtension {
  dir: string;
  /** False when this version was already there (Chrome may be loading it: it is left alone). */
  copied: boolean;
}

/**
 * Copies the extension this package carries to $TABMCP_HOME/extension/<version>, the folder to give
 * Chrome's "Load unpacked" (issue 28): npx's cache, where the package lives, is rewritten in place by
 * the next version, which would change an installed extension under Chrome's feet. Keeps the dev
 * build's key, so Chrome gives it the id tabmcp accepts without --allow-extension-id.
 */
export function installExtension(
  sourceDir: string,
  home: string = tabmcpHome(),
  version: string = TABMCP_VERSION,
): InstalledExtension {
  const dir = join(home, 'extension', version);
  if (existsSync(join(dir, 'manifest.json'))) return { dir, copied: false };
  mkdirSync(join(home, 'extension'), { recursive: true, mode: 0o700 });
  // Whole or not at all: a folder Chrome could load half-copied would be worse than none.
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(sourceDir, staging, {
    recursive: true,
    // Source maps are most of its bytes; config.json is --launch's own pairing, not the user's.
    filter: (path) => !path.endsWith('.map') && !path.endsWith('config.json'),
  });
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return { dir, copied: true };
}

/** What `tabmcp extension` prints. */
export function installedExtensionText(installed: InstalledExtension): string {
  return `The tabmcp extension ${TABMCP_VERSION} is ${installed.copied ? 'now installed' : 'installed'} in
  ${installed.dir}
Load it into Chrome once: open chrome://extensions, turn on "Developer mode", click "Load unpacked"
and pick that folder. Then pair it: npx -y tabmcp pair
(A newer tabmcp installs its own version beside this one: load that folder instead then.)
`;
}
