import { waitUntil } from '@tabmcp/protocol';
import type { BrowserConnection } from './browser-connection';

/** True at once when the link is up, else when it comes up; false after `timeoutMs`. */
export function untilUp(link: Pick<BrowserConnection, 'isUp' | 'on'>, timeoutMs: number): Promise<boolean> {
  if (link.isUp) return Promise.resolve(true);
  return waitUntil<boolean>((done) => link.on('up', () => done(true)), { timeoutMs, onTimeout: () => false });
}
