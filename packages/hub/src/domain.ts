/**
 * The domain of docs/requirements.md#hub's tool storage and names: the URL's host (with a non-default port, so
 * two local servers on different ports never merge). Non-web pages have none.
 */
export function domainOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return parsed.host.toLowerCase();
  } catch {
    return undefined;
  }
}

export function originOfDomain(domain: string, url: string | undefined): string {
  try {
    if (url) return new URL(url).origin;
  } catch {
    // fall through to the domain's https origin
  }
  return `https://${domain}`;
}
