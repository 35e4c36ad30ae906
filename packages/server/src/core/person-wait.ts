import type { PersonWait } from '@tabmcp/protocol';
import type { Progress } from './tool-definition';

/**
 * While a call waits for the person, it says so again this often: a client that resets its timeout
 * on progress (the SDK's resetTimeoutOnProgress) then never times out a call the person is reading.
 */
export const STILL_WAITING_EVERY_MS = 5_000;

/**
 * Runs a call that may wait for the person to confirm it (the extension's prompt), telling the agent
 * through `progress` when it does: at once, with since when and the latest the answer can come, then
 * every STILL_WAITING_EVERY_MS until the call answers or that latest time has passed. The repeats end
 * with the call: they are on no call's path.
 */
export async function sayingWhenWaiting<T>(
  progress: Progress,
  call: (onWaiting: (wait: PersonWait) => void) => Promise<T>,
): Promise<T> {
  let repeat: ReturnType<typeof setInterval> | undefined;
  const onWaiting = (wait: PersonWait) => {
    clearInterval(repeat);
    progress(waitingText(wait), 'waiting');
    repeat = setInterval(() => {
      if (Date.now() >= wait.until) clearInterval(repeat);
      else progress(stillWaitingText(wait, Date.now()), 'still waiting');
    }, STILL_WAITING_EVERY_MS);
    repeat.unref();
  };
  try {
    return await call(onWaiting);
  } finally {
    clearInterval(repeat);
  }
}

function waitingText(wait: PersonWait): string {
  return `tabmcp is waiting for the person to confirm ${wait.tool} on ${siteName(wait)} in the browser's prompt, since ${clock(wait.since)}, until ${clock(wait.until)} at most (${seconds(wait.until - wait.since)} s); the answer says then whether they confirmed, denied, or did not answer.`;
}

function stillWaitingText(wait: PersonWait, now: number): string {
  return `Still waiting for the person to confirm ${wait.tool} on ${siteName(wait)}: ${seconds(now - wait.since)} s so far, ${seconds(Math.max(0, wait.until - now))} s more at most.`;
}

const siteName = (wait: PersonWait) => wait.site || 'this page';
const seconds = (ms: number) => Math.round(ms / 1000);
/** UTC time of day, to the second: 08:41:37Z. */
const clock = (at: number) => `${new Date(at).toISOString().slice(11, 19)}Z`;
