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
}

/** An HS256 JWT for `userId`, as the `token` CLI prints it. */
export async function signToken(options: SignTokenOptions): Promise<string> {
  const seconds = parseDurationSeconds(options.ttl ?? '1h');
  let jwt = new SignJWT({ ...options.claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.userId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + seconds);
  if (options.issuer) jwt = jwt.setIssuer(options.issuer);
  if (options.audience) jwt = jwt.setAudience(options.audience);
  return jwt.sign(new TextEncoder().encode(options.secret));
}
