import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  AuthChallenge,
  AuthHello,
  AuthProof,
  dialledPort,
  LINK_AUTH_TIMEOUT_MS,
  type LinkAuthRole,
  parseMessage,
  proofInput,
  waitUntil,
} from '@tabmcp/protocol';
import type WebSocket from 'ws';

/** HMAC-SHA256 of protocol/link-auth's input, synchronous so no frame can slip in while it runs. */
function nodeLinkProof(
  token: string,
  role: LinkAuthRole,
  port: number,
  clientNonce: string,
  serverNonce: string,
): string {
  return createHmac('sha256', token)
    .update(proofInput(role, port, clientNonce, serverNonce))
    .digest('hex');
}

function equalHex(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const AUTH_FRAME_BYTES = 1_024;

/**
 * The listening side of the exchange in protocol/link-auth.ts. Calls `accepted` once the dialler
 * proved it holds the token (in the same tick as the proof, so its next frame finds the real
 * handlers); closes the socket on anything else. `port` is the local port the connection came in on
 * (`request.socket.localPort`): both proofs are bound to it.
 */
export function authenticateDialler(
  ws: WebSocket,
  token: string,
  port: number,
  accepted: () => void,
  refused: (reason: string) => void,
  timeoutMs = LINK_AUTH_TIMEOUT_MS,
): void {
  const serverNonce = randomBytes(32).toString('hex');
  let clientNonce: string | undefined;
  const fail = (reason: string) => {
    clearTimeout(timer);
    ws.off('message', onMessage);
    ws.off('close', onClose);
    ws.close(4001, 'authentication failed');
    refused(reason);
  };
  const timer = setTimeout(() => fail(`no authentication within ${timeoutMs} ms`), timeoutMs);
  timer.unref();
  // The extension hangs up by itself when it has no token, or when our proof does not match its
  // token: say which (the two looked alike in the log before, issue 28).
  const onClose = (code: number, why: Buffer) => {
    clearTimeout(timer);
    ws.off('message', onMessage);
    if (clientNonce === undefined && code === 4001 && why.toString() === 'not paired') refused('not paired');
    else if (clientNonce !== undefined && code === 4001) refused('wrong pairing token');
    else refused(`the dialler hung up before authenticating (code ${code})`);
  };
  ws.once('close', onClose);
  const onMessage = (data: WebSocket.RawData, isBinary: boolean) => {
    const text = isBinary ? '' : data.toString();
    if (clientNonce === undefined) {
      const hello = parseMessage(AuthHello, text, 'authentication hello', AUTH_FRAME_BYTES);
      if (!hello.ok) return fail('the first frame was not authHello');
      clientNonce = hello.value.nonce;
      const proof = nodeLinkProof(token, 'server', port, clientNonce, serverNonce);
      ws.send(JSON.stringify({ type: 'authChallenge', nonce: serverNonce, proof }));
      return;
    }
    const answer = parseMessage(AuthProof, text, 'authentication proof', AUTH_FRAME_BYTES);
    if (!answer.ok) return fail('the second frame was not authProof');
    if (!equalHex(answer.value.proof, nodeLinkProof(token, 'client', port, clientNonce, serverNonce))) {
      return fail('wrong pairing token');
    }
    clearTimeout(timer);
    ws.off('message', onMessage);
    ws.off('close', onClose);
    accepted();
  };
  ws.on('message', onMessage);
}

/**
 * The dialling side, for a peer tabmcp (and tests): resolves once the listener proved it holds
 * the token and our own proof is sent; rejects, sending nothing more, when it cannot prove it.
 */
export function authenticateListener(ws: WebSocket, token: string): Promise<void> {
  const clientNonce = randomBytes(32).toString('hex');
  const port = dialledPort(ws.url);
  const authenticated = waitUntil<void>(
    (done, fail) => {
      const onMessage = (data: WebSocket.RawData, isBinary: boolean) => {
        const challenge = parseMessage(AuthChallenge, isBinary ? '' : data.toString(), 'challenge', AUTH_FRAME_BYTES);
        if (!challenge.ok) return fail(new Error('The process on this port does not speak the tabmcp link'));
        const { nonce: serverNonce, proof } = challenge.value;
        if (!equalHex(proof, nodeLinkProof(token, 'server', port, clientNonce, serverNonce))) {
          return fail(new Error('The process on this port does not hold the pairing token; nothing was sent to it'));
        }
        ws.send(
          JSON.stringify({ type: 'authProof', proof: nodeLinkProof(token, 'client', port, clientNonce, serverNonce) }),
        );
        done();
      };
      ws.on('message', onMessage);
      return () => ws.off('message', onMessage);
    },
    {
      timeoutMs: LINK_AUTH_TIMEOUT_MS,
      unref: true,
      onTimeout: () => {
        throw new Error('The listener did not authenticate within 5 s');
      },
    },
  );
  const hello = () => ws.send(JSON.stringify({ type: 'authHello', nonce: clientNonce }));
  if (ws.readyState === ws.OPEN) hello();
  else ws.once('open', hello);
  return authenticated.catch((error: unknown) => {
    ws.close(4001, 'authentication failed');
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { kind: 'not-tabmcp' as const });
  });
}
