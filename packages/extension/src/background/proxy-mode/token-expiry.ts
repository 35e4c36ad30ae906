/** Reconnect with a fresh token this long before the current one expires (or at 80 % of a short lifetime). */
const REFRESH_MARGIN_MS = 60_000;

/**
 * The `exp` of a JWT in ms, read without verifying (only the proxy can verify; the extension only
 * needs to know when to look for a newer token). Undefined when the token has none or is not a JWT.
 */
export function tokenExpiryMs(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** When to look for a newer token: undefined for a token without `exp`; 0 when already due. */
export function refreshDelayMs(token: string, nowMs: number, issuedAtMs: number = nowMs): number | undefined {
  const expiry = tokenExpiryMs(token);
  if (expiry === undefined) return undefined;
  const margin = Math.min(REFRESH_MARGIN_MS, Math.max(0, (expiry - issuedAtMs) * 0.2));
  return Math.max(0, expiry - margin - nowMs);
}
