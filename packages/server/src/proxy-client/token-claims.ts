import { readFileSync } from 'node:fs';

/**
 * The proxy URL a JWT carries in its `connection_url` claim (docs/requirements.md#remote-proxy), or undefined.
 * The payload is read, not verified: the proxy verifies the token, and the URL only says where to
 * send it, which the user chose by handing tabmcp this token.
 */
export function connectionUrlOf(jwt: string): string | undefined {
  const payload = jwt.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { connection_url?: unknown };
    const url = claims.connection_url;
    return typeof url === 'string' && /^wss?:\/\/[^\s/]+/.test(url) ? url.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Remote mode without `--proxy`: a proxy token given by `--token-file` or TABMCP_PROXY_TOKEN whose
 * `connection_url` names the proxy. A local pairing token (`TABMCP_TOKEN`) is never read as one.
 */
export function impliedProxyUrl(
  tokenFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  let token = env.TABMCP_PROXY_TOKEN;
  if (tokenFile) {
    try {
      token = readFileSync(tokenFile, 'utf8').trim();
    } catch {
      return undefined;
    }
  }
  return token ? connectionUrlOf(token) : undefined;
}
