// Entry point without zod, for code that runs inside web pages.
export * from './document-identity';
export * from './errors';
export * from './json-shape';
export * from './limits';
export * from './listener-set';
export * from './own-page-tools';
export * from './pending-requests';
export * from './shared-rules';
export * from './tab-wire';
export * from './untrusted-text';
export * from './with-timeout';
