export type { BrowserConnection, BrowserEvent, BrowserLauncher } from './core/browser-connection';
export { BrowserSession, type ListedTool, type SessionOptions } from './core/session';
export { WebSocketBrowserLink } from './link/websocket-browser-link';
