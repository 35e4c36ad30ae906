import type { BrowserInfo } from '@tabmcp/protocol';

/** One entry of navigator.userAgentData's brand lists (User-Agent Client Hints). */
export interface BrandVersion {
  brand: string;
  version: string;
}

/**
 * The brands a Chromium-family browser lists, best first: a branded browser lists "Chromium" too,
 * so its own brand wins. Chrome 110+ and its forks send these in every context, workers included.
 */
const KNOWN_BRANDS: ReadonlyArray<[brand: string, name: string]> = [
  ['Microsoft Edge', 'Edge'],
  ['Brave', 'Brave'],
  ['Opera', 'Opera'],
  ['Google Chrome for Testing', 'Chrome for Testing'],
  ['Google Chrome', 'Chrome'],
  ['Chromium', 'Chromium'],
];

/**
 * The browser's name and version from its brand list (the full versions when known), else from
 * the user agent string, which since UA reduction says "Chrome" for every Chromium-family browser.
 */
export function identifyBrowser(
  brands: readonly BrandVersion[] | undefined,
  fullVersions: readonly BrandVersion[] | undefined,
  userAgent: string,
): BrowserInfo {
  for (const [brand, name] of KNOWN_BRANDS) {
    const listed = brands?.find((entry) => entry.brand === brand);
    if (!listed) continue;
    const full = fullVersions?.find((entry) => entry.brand === brand);
    return { name, version: full?.version ?? listed.version };
  }
  // A fork appends its own token after Chrome's: look for it first.
  const fork = /(Edg|OPR)\/([\d.]+)/.exec(userAgent);
  if (fork) return { name: fork[1] === 'Edg' ? 'Edge' : 'Opera', version: fork[2] ?? 'unknown' };
  return { name: 'Chromium', version: /Chrom(?:e|ium)\/([\d.]+)/.exec(userAgent)?.[1] ?? 'unknown' };
}
