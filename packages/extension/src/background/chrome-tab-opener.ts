import type { TabOpener } from '@tabmcp/hub';
import { ErrorCode, ProtocolError } from '@tabmcp/protocol';

/** Opens the page of a cached tool in a background tab, so the user's current tab keeps the focus. */
export const chromeTabOpener: TabOpener = {
  async open(url: string): Promise<number> {
    const tab = await chrome.tabs.create({ url, active: false });
    if (tab.id === undefined)
      throw new ProtocolError(ErrorCode.InternalError, 'The browser created a tab without an id');
    return tab.id;
  },
  async close(tabId: number): Promise<void> {
    await chrome.tabs.remove(tabId);
  },
};
