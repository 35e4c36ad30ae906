import type { BrowserInfo } from '@tabmcp/protocol';
import { type BrandVersion, identifyBrowser } from './browser-brands';

interface UserAgentData {
  brands: BrandVersion[];
  getHighEntropyValues(hints: string[]): Promise<{ fullVersionList?: BrandVersion[] }>;
}

function userAgentData(): UserAgentData | undefined {
  return (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
}

let identity: BrowserInfo = identifyBrowser(userAgentData()?.brands, undefined, navigator.userAgent);

/**
 * Resolves once the full version is read (an asynchronous client hint); the link's first dial
 * waits for it, so the server's first `hello` already names the browser exactly.
 */
export const browserIdentityReady: Promise<void> = (async () => {
  const data = userAgentData();
  if (!data) return;
  try {
    const { fullVersionList } = await data.getHighEntropyValues(['fullVersionList']);
    identity = identifyBrowser(data.brands, fullVersionList, navigator.userAgent);
  } catch {
    // The brands' major versions stay.
  }
})();

/** The browser this extension runs in: Chrome, Chromium, Brave, Edge… and its version. */
export function browserInfo(): BrowserInfo {
  return identity;
}
