import { SignJWT } from 'jose';
import { parseDurationSeconds } from './duration';

export interface SignTokenOptions {
  secret: string;
  userId: string;
  /** e.g. `"1h"`; default one hour. */
  ttl?: string;
  /** Extra claims, e.g. `connection_url` for MCP clients. */
  claims?: Record<string, unknown>;
  issuer?: string;
  audience?: string;
  /** `extension` or `client`: the token then opens only that endpoint. */
  role?: 'extension' | 'client';
}

/** An HS256 JWT for `userId`, as the `token` CLI prints it. */
export async function signToken(options: SignTokenOptions): Promise<string> {
  const key = new TextEncoder().encode(options.secret);
  // Same floor as the verifier: a token signed with a secret the proxy would refuse is useless.
  if (key.byteLength < 32) throw new Error('The HS256 secret must be at least 32 bytes');
  const seconds = parseDurationSeconds(options.ttl ?? '1h');
  let jwt = new SignJWT({ ...options.claims, ...(options.role ? { role: options.role } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.userId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + seconds);
  if (options.issuer) jwt = jwt.setIssuer(options.issuer);
  if (options.audience) jwt = jwt.setAudience(options.audience);
  return jwt.sign(key);
}
