/**
 * Why the browser link turned an extension away, in words the agent, the server log and the user
 * can act on (issue 28: "not paired" and "wrong token" looked alike, and nobody said what to do).
 */
export type PairingRefusal = 'not-paired' | 'wrong-token' | 'id-not-allowed';

const PAIR_STEP =
  "run `npx -y tabmcp pair` and paste the port and token it prints into the extension's options page (chrome://extensions → tabmcp → Details → Extension options)";

/** The cause and the next step of a refusal, one sentence each. */
export function pairingRefusalText(refusal: PairingRefusal, origin?: string): string {
  switch (refusal) {
    case 'not-paired':
      return `The tabmcp extension is not paired (it has no pairing token): ${PAIR_STEP}.`;
    case 'wrong-token':
      return `The tabmcp extension holds another pairing token than this server: ${PAIR_STEP}. (A different TABMCP_HOME or --token gives another token.)`;
    case 'id-not-allowed': {
      const id = /^chrome-extension:\/\/([a-p]{32})$/.exec(origin ?? '')?.[1];
      return id
        ? `A tabmcp extension with the id ${id} is not accepted by this server: start tabmcp with --allow-extension-id ${id} (or TABMCP_EXTENSION_IDS=${id}).`
        : `Origin ${origin ?? '(none)'} is not allowed: only the tabmcp extension may connect.`;
    }
  }
}

/** The last refusal, for connect_browser's answer: agents are told why no browser came. */
export interface RecentRefusal {
  text: string;
  at: number;
}

/** A refusal older than this no longer explains why no browser is connected. */
export const REFUSAL_RELEVANT_MS = 60_000;
