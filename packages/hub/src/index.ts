export { Hub, type HubOptions, type TabTools } from './hub';
export { PendingRequests } from './pending-requests';
export type { TabTransport } from './tab-transport';
