import { accessSync, constants, readdirSync } from 'node:fs';
import { posix, win32 } from 'node:path';

export const INSTALL_INSTRUCTIONS = [
  'No Chromium or Chrome was found.',
  'Install Chromium: Debian/Ubuntu `sudo apt-get install -y chromium`, Fedora `sudo dnf install chromium`, macOS `brew install --cask chromium`, or Chrome for Testing: `npx @puppeteer/browsers install chrome@stable`.',
  'Or point tabmcp at a browser: `tabmcp --browser /path/to/chromium` or the CHROME_PATH environment variable.',
  'Note: Google Chrome 137 and later ignore --load-extension; Chromium (or Chrome for Testing) works with --launch, and any Chrome works when you load the extension yourself.',
].join(' ');

/** What the search looks at, injected so it is a pure function of the machine it describes. */
export interface BrowserSearch {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** True when the path is an executable file. */
  exists(path: string): boolean;
  /** The entries of a folder; empty when it does not exist. */
  list(dir: string): string[];
}

const MAC_APPS = [
  'Chromium.app/Contents/MacOS/Chromium',
  'Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  'Brave Browser.app/Contents/MacOS/Brave Browser',
  'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
  'Google Chrome.app/Contents/MacOS/Google Chrome',
];

const LINUX_NAMES = {
  chromium: ['chromium', 'chromium-browser'],
  others: ['brave-browser', 'brave-browser-stable', 'microsoft-edge', 'microsoft-edge-stable'],
  chrome: ['google-chrome-stable', 'google-chrome'],
};

/** Inside one version folder of a Chrome for Testing cache (Puppeteer's), per platform. */
const TESTING_BINARIES: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ['chrome-linux64/chrome'],
  darwin: [
    'chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
    'chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  ],
  win32: ['chrome-win64/chrome.exe', 'chrome-win32/chrome.exe'],
};

/** Windows environment names are case-insensitive; a plain object (a test's) is not. */
function envValue(env: BrowserSearch['env'], name: string): string | undefined {
  const key = Object.keys(env).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : env[key];
}

/** The newest first: version folders such as linux-131.0.6778.85 compare by their numbers. */
function newestFirst(entries: string[]): string[] {
  return [...entries].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
}

function chromeForTesting(search: BrowserSearch, home: string, join: (...parts: string[]) => string): string[] {
  const cache =
    search.platform === 'linux'
      ? (envValue(search.env, 'XDG_CACHE_HOME') ?? join(home, '.cache'))
      : join(home, '.cache');
  const root = join(envValue(search.env, 'PUPPETEER_CACHE_DIR') ?? join(cache, 'puppeteer'), 'chrome');
  const inner = TESTING_BINARIES[search.platform] ?? [];
  return newestFirst(search.list(root)).flatMap((version) => inner.map((binary) => join(root, version, binary)));
}

/**
 * Every place a Chromium-family browser is usually installed, best first: Chromium and Chrome for
 * Testing (they honour --load-extension), then Brave and Edge, then branded Chrome (137 and later
 * ignore --load-extension, so it is the last resort).
 */
function browserCandidates(search: BrowserSearch): string[] {
  const { platform, env } = search;
  if (platform === 'win32') {
    const join = win32.join;
    const home = envValue(env, 'USERPROFILE') ?? 'C:\\Users\\Default';
    const local = envValue(env, 'LOCALAPPDATA') ?? join(home, 'AppData', 'Local');
    const programs = envValue(env, 'ProgramFiles') ?? 'C:\\Program Files';
    const programs86 = envValue(env, 'ProgramFiles(x86)') ?? 'C:\\Program Files (x86)';
    // Per-user installs (no admin rights) go to %LOCALAPPDATA%, machine-wide ones to Program Files.
    const roots = [local, programs, programs86];
    const under = (...parts: string[]) => roots.map((root) => join(root, ...parts));
    return [
      ...under('Chromium', 'Application', 'chrome.exe'),
      ...chromeForTesting(search, home, join),
      ...under('BraveSoftware', 'Brave-Browser', 'Application', 'brave.exe'),
      ...under('Microsoft', 'Edge', 'Application', 'msedge.exe'),
      ...under('Google', 'Chrome', 'Application', 'chrome.exe'),
    ];
  }
  const join = posix.join;
  const home = envValue(env, 'HOME') ?? '/';
  if (platform === 'darwin') {
    const apps = (app: string) => [join('/Applications', app), join(home, 'Applications', app)];
    const [chromium = '', testing = '', ...rest] = MAC_APPS;
    return [...apps(chromium), ...apps(testing), ...chromeForTesting(search, home, join), ...rest.flatMap(apps)];
  }
  const dirs = [...new Set([...(envValue(env, 'PATH') ?? '').split(':').filter(Boolean), '/usr/bin', '/snap/bin'])];
  // The user's PATH order decides between names of one kind.
  const inPath = (names: string[]) => dirs.flatMap((dir) => names.map((name) => join(dir, name)));
  return [
    ...inPath(LINUX_NAMES.chromium),
    ...chromeForTesting(search, home, join),
    ...inPath(LINUX_NAMES.others),
    '/opt/brave.com/brave/brave',
    '/opt/microsoft/msedge/msedge',
    ...inPath(LINUX_NAMES.chrome),
    '/opt/google/chrome/chrome',
  ];
}

/** --browser, then CHROME_PATH, then the usual install paths (browserCandidates). */
export function findBrowser(explicit: string | undefined, search: BrowserSearch = thisMachine()): string | undefined {
  for (const path of [explicit, search.env.CHROME_PATH]) {
    if (path) return search.exists(path) ? path : undefined;
  }
  return browserCandidates(search).find((path) => search.exists(path));
}

function thisMachine(): BrowserSearch {
  return {
    platform: process.platform,
    env: process.env,
    exists: (path) => {
      try {
        accessSync(path, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
    list: (dir) => {
      try {
        return readdirSync(dir);
      } catch {
        return [];
      }
    },
  };
}
