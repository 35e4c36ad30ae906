import { accessSync, constants } from 'node:fs';
import { platform } from 'node:process';

const CANDIDATES: Record<string, string[]> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/google-chrome',
    '/usr/bin/microsoft-edge',
  ],
  darwin: [
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ],
  win32: [
    'C:\\Program Files\\Chromium\\Application\\chrome.exe',
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
  ],
};

export const INSTALL_INSTRUCTIONS = [
  'No Chromium or Chrome was found.',
  'Install Chromium: Debian/Ubuntu `sudo apt-get install -y chromium`, Fedora `sudo dnf install chromium`, macOS `brew install --cask chromium`.',
  'Or point tabmcp at a browser: `tabmcp --browser /path/to/chromium` or the CHROME_PATH environment variable.',
  'Note: Google Chrome 137 and later ignore --load-extension; Chromium (or Chrome for Testing) works with --launch, and any Chrome works when you load the extension yourself.',
].join(' ');

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** --browser, then CHROME_PATH, then the usual install paths; Chromium before branded Chrome. */
export function findBrowser(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const path of [explicit, env.CHROME_PATH]) {
    if (path) return isExecutable(path) ? path : undefined;
  }
  return (CANDIDATES[platform] ?? []).find(isExecutable);
}
