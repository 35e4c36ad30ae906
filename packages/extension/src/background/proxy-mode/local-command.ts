import type { Hub } from '@tabmcp/hub';
import { ProtocolError } from '@tabmcp/protocol';
import { handleServerRequest, type LinkCommand } from '../link-commands';

/**
 * Runs one of the local link's commands (openTab, focusTab, closeTab, pageRequest) and returns its
 * result, so proxy mode and the local link share one implementation of each.
 */
export function localCommand(hub: Hub, request: LinkCommand): Promise<unknown> {
  return new Promise((resolve, reject) => {
    handleServerRequest(request, hub, (message) => {
      if (message.type === 'response') {
        if (message.error) reject(new ProtocolError(message.error.code, message.error.message));
        else resolve(message.result);
      } else if (message.type === 'connected') {
        resolve({ browser: message.browser, tabs: message.tabs });
      } else if (message.type === 'toolResult') {
        if (message.error !== undefined || !message.result) reject(new Error(message.error ?? 'no result'));
        else resolve(message.result);
      }
    });
  });
}
