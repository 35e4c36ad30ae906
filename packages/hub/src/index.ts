export { Hub, type HubOptions, type TabTools } from './hub';
export type { TabTransport } from './tab-transport';
