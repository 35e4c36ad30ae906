import { withTimeout } from '@tabmcp/protocol/light';
import { BRIDGE_REQUEST } from '../page-injection-messages';

/** A worker that does not answer by then (stopped, restoring) leaves the page without its bridge: derived tools still work. */
const BRIDGE_WAIT_MS = 2_000;

/**
 * Asks the background for the MAIN-world bridge in this document; resolves once it is in, or the
 * background said no (a site not allowed never gets it), or did not answer in time.
 */
export async function askForBridge(): Promise<void> {
  await withTimeout(
    chrome.runtime.sendMessage({ type: BRIDGE_REQUEST }).catch(() => undefined),
    { timeoutMs: BRIDGE_WAIT_MS, onTimeout: () => undefined },
  );
}
