// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import * as z from 'zod/mini';

/**
 * Mutual authentication of the local browser link and of peers joining at /peer, keyed by the
 * pairing token, which never crosses the wire. A process that squats the port first learns
 * nothing (a nonce) and gets nothing done: the dialling side sends no state and runs no request
 * before the listening side has proved it holds the token.
 *
 *   dialler  → listener  authHello     {nonce: Nc}
 *   listener → dialler   authChallenge {nonce: Ns, proof: HMAC(token, "server|port|Nc|Ns")}
 *   dialler verifies the proof (or hangs up), then
 *   dialler  → listener  authProof     {proof: HMAC(token, "client|port|Nc|Ns")}
 *   the listener verifies it (or hangs up); only then does the link carry anything else.
 *
 * `port` is the TCP port the dialler dialled and the listener took the connection on (issue 26): a
 * relay on another port that forwards the exchange to a tabmcp holding the same token gets proofs
 * for that tabmcp's port, which the dialler refuses, and the dialler's proof for the relay's port,
 * which that tabmcp refuses. No tabmcp can be used as a signing oracle for another endpoint.
 */
export const LINK_AUTH_VERSION = 'tabmcp-link-auth-2';
/** Whoever does not finish the exchange within this long is dropped. */
export const LINK_AUTH_TIMEOUT_MS = 5_000;

const Nonce = z.string().check(z.regex(/^[0-9a-f]{64}$/));
const Proof = z.string().check(z.regex(/^[0-9a-f]{64}$/));

export const AuthHello = z.object({ type: z.literal('authHello'), nonce: Nonce });
export const AuthChallenge = z.object({ type: z.literal('authChallenge'), nonce: Nonce, proof: Proof });
export const AuthProof = z.object({ type: z.literal('authProof'), proof: Proof });

export type LinkAuthRole = 'server' | 'client';

/** What each side signs: role-bound, so a proof cannot be reflected back to its sender; endpoint-bound, so it cannot be relayed. */
export function proofInput(role: LinkAuthRole, port: number, clientNonce: string, serverNonce: string): string {
  return `${LINK_AUTH_VERSION}|${role}|${port}|${clientNonce}|${serverNonce}`;
}

/** The port a `ws://` or `wss://` URL dials (its scheme's default when it names none). */
export function dialledPort(url: string): number {
  const parsed = new URL(url);
  if (parsed.port) return Number(parsed.port);
  return parsed.protocol === 'wss:' || parsed.protocol === 'https:' ? 443 : 80;
}

export function newNonce(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** HMAC-SHA256 with WebCrypto (MV3 worker and Node alike). */
export async function linkProof(
  token: string,
  role: LinkAuthRole,
  port: number,
  clientNonce: string,
  serverNonce: string,
): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(token), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const signature = await crypto.subtle.sign(
    'HMAC',
    key,
    encoder.encode(proofInput(role, port, clientNonce, serverNonce)),
  );
  return toHex(new Uint8Array(signature));
}

/** Constant-time comparison of two hex proofs. */
export function sameProof(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function toHex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
