export interface ChromiumArgsOptions {
  headless?: boolean;
  profileDir?: string;
  /** Unpacked extensions to load, and the only ones allowed to run. */
  extensionDirs?: string[];
}

/**
 * The flags of every Chromium that tabmcp, its tests and its benchmarks start, in one place so a
 * test browser behaves like the one users get: no first-run UI, no background traffic that could
 * race a measurement, no QUIC (loopback pages are plain HTTP), a fixed window size for layout.
 * Root cannot run the sandbox (CI containers), so it is turned off only there.
 */
export function chromiumArgs(options: ChromiumArgsOptions = {}): string[] {
  const extensions = options.extensionDirs?.join(',');
  return [
    ...(options.headless ? ['--headless=new'] : []),
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--window-size=1280,800',
    ...(options.profileDir ? [`--user-data-dir=${options.profileDir}`] : []),
    ...(extensions ? [`--disable-extensions-except=${extensions}`, `--load-extension=${extensions}`] : []),
  ];
}

/**
 * Why a launched browser must run headless although --headless was not given: on Linux without
 * an X or Wayland display (SSH, containers, CI, WSL without its GUI) a headed Chromium exits at
 * once. Undefined when a window can be shown.
 */
export function noDisplayReason(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (platform !== 'linux' && platform !== 'freebsd' && platform !== 'openbsd') return undefined;
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return undefined;
  return 'neither DISPLAY nor WAYLAND_DISPLAY is set';
}
