export type { BrowserConnection, BrowserEvent, BrowserLauncher } from './core/browser-connection';
export { BrowserSession, type SessionOptions } from './core/session';
export type { ListedTool } from './core/tool-definition';
export { WebSocketBrowserLink } from './link/websocket-browser-link';
