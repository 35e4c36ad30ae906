import { createPublicKey } from 'node:crypto';
import {
  type CryptoKey,
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  importSPKI,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';

/** Who a token speaks for. */
export interface Identity {
  userId: string;
  /** Seconds since the epoch, when the token carries `exp`. */
  expiresAt?: number;
  /** The `role` claim: a token for one endpoint is refused at the other. Absent on legacy agent tokens. */
  role?: TokenRole;
}

/** `extension` tokens open `/extension` only, `client` tokens `/mcp` only. */
export type TokenRole = 'extension' | 'client';

/** What a browser is told when its token was not minted for a browser. */
const BROWSER_ROLE_REQUIRED =
  'Token has no role: a browser needs a token minted with --role extension (tabmcp-proxy token --role extension)';

/**
 * Why a token may not open this endpoint, or undefined when it may. A browser's token must say it is one
 * (role extension): a role-less token, such as an agent's, registering a browser under the real one's name was the
 * impostor of issue 26. An agent's token may still carry no role (unless --require-role).
 */
export function roleMismatch(identity: Identity, endpoint: TokenRole): string | undefined {
  if (identity.role === endpoint) return undefined;
  if (identity.role === undefined) return endpoint === 'extension' ? BROWSER_ROLE_REQUIRED : undefined;
  return identity.role === 'client'
    ? 'Token is for an MCP client (role client), not a browser extension'
    : 'Token is for a browser extension (role extension), not an MCP client';
}

export interface TokenVerifier {
  /** Resolves to the identity, or rejects with an {@link AuthError} whose message is safe to show. */
  verify(token: string): Promise<Identity>;
}

export class AuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthError';
  }
}

export interface AuthOptions {
  /** Shared secret for HS256 (at least 32 bytes). */
  secret?: string;
  /** PEM (SPKI) public key: Ed25519 pins EdDSA, RSA pins RS256. */
  publicKeyPem?: string;
  /** Key set for EdDSA / RS256 / ES256 tokens, chosen by `kid`. */
  jwks?: JSONWebKeySet;
  /** Narrows the algorithms accepted; `none` and anything without a configured key never are. */
  algorithms?: string[];
  issuer?: string;
  audience?: string;
  /** `exp` must be present (default true). */
  requireExp?: boolean;
  /** Tokens without a `role` claim are refused (default false, for tokens minted before roles). */
  requireRole?: boolean;
  clockToleranceSec?: number;
}

const MIN_SECRET_BYTES = 32;
const MAX_TOKEN_LENGTH = 16_384;
const MAX_USER_ID_LENGTH = 256;
const JWKS_ALGORITHMS = ['EdDSA', 'Ed25519', 'RS256', 'ES256'];

type KeyFor = CryptoKey | Uint8Array | JWTVerifyGetKey;

/**
 * Builds a verifier with a pinned algorithm list: each accepted `alg` maps to exactly one key source, so a
 * token can never choose how it is checked (no `none`, no HS256 signed with a public key).
 */
export async function createTokenVerifier(options: AuthOptions): Promise<TokenVerifier> {
  const keys = new Map<string, KeyFor>();
  if (options.secret !== undefined) {
    const secret = new TextEncoder().encode(options.secret);
    if (secret.byteLength < MIN_SECRET_BYTES)
      throw new Error(`The HS256 secret must be at least ${MIN_SECRET_BYTES} bytes`);
    keys.set('HS256', secret);
  }
  if (options.publicKeyPem !== undefined) {
    const type = createPublicKey(options.publicKeyPem).asymmetricKeyType;
    if (type === 'ed25519') {
      const key = await importSPKI(options.publicKeyPem, 'EdDSA');
      keys.set('EdDSA', key);
      keys.set('Ed25519', key);
    } else if (type === 'rsa') {
      keys.set('RS256', await importSPKI(options.publicKeyPem, 'RS256'));
    } else {
      throw new Error(`Unsupported public key type ${type ?? 'unknown'} (use Ed25519 or RSA)`);
    }
  }
  if (options.jwks !== undefined) {
    const set = createLocalJWKSet(options.jwks);
    for (const alg of JWKS_ALGORITHMS) if (!keys.has(alg)) keys.set(alg, set);
  }
  if (options.algorithms) {
    const allowed = new Set(options.algorithms);
    for (const alg of [...keys.keys()]) if (!allowed.has(alg)) keys.delete(alg);
  }
  if (keys.size === 0) throw new Error('No token key configured: give a secret, a public key or a JWKS');

  const requireExp = options.requireExp ?? true;
  return {
    async verify(token: string): Promise<Identity> {
      if (typeof token !== 'string' || token.length === 0) throw new AuthError('Missing token');
      if (token.length > MAX_TOKEN_LENGTH) throw new AuthError('Token too long');
      let alg: string | undefined;
      try {
        alg = decodeProtectedHeader(token).alg;
      } catch {
        throw new AuthError('Malformed token');
      }
      const key = alg === undefined ? undefined : keys.get(alg);
      if (alg === undefined || key === undefined) throw new AuthError(`Algorithm ${alg ?? '(none)'} is not accepted`);
      let payload: JWTPayload;
      try {
        const verifyOptions = {
          algorithms: [alg],
          requiredClaims: requireExp ? ['exp'] : [],
          issuer: options.issuer,
          audience: options.audience,
          clockTolerance: options.clockToleranceSec ?? 5,
        };
        // jose overloads on the key's type; the branches only differ in that.
        payload =
          typeof key === 'function'
            ? (await jwtVerify(token, key, verifyOptions)).payload
            : (await jwtVerify(token, key, verifyOptions)).payload;
      } catch (error) {
        throw new AuthError(describeJoseError(error));
      }
      const userId = typeof payload.sub === 'string' && payload.sub ? payload.sub : payload.user_id;
      if (typeof userId !== 'string' || userId.length === 0) throw new AuthError('Token has no user id (sub)');
      if (userId.length > MAX_USER_ID_LENGTH) throw new AuthError('User id too long');
      const role = payload.role;
      if (role !== undefined && role !== 'extension' && role !== 'client') {
        throw new AuthError('Unknown role claim (use extension or client)');
      }
      const identity: Identity = { userId };
      if (payload.exp !== undefined) identity.expiresAt = payload.exp;
      if (role !== undefined) identity.role = role;
      if (options.requireRole && role === undefined)
        throw new AuthError('Token has no role claim (extension or client)');
      return identity;
    },
  };
}

function describeJoseError(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'Token expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `Claim ${error.claim} ${error.reason}`;
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'Invalid signature';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'Algorithm not accepted';
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return 'No matching key';
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return 'Malformed token';
  return 'Invalid token';
}
