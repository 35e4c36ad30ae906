// How tabmcp's Node CLIs are bundled, shared by scripts/build.mjs (the published `tabmcp` and `tabmcp-proxy`)
// and test-support/proxy/processes.ts (the proxy CLI the unit tests run from source), so both bundle alike.
// ESM bundles; the banner gives the CommonJS code bundled in them (ws) a `require`; ws's optional native
// add-ons stay out.
export const FOR_NODE = {
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['bufferutil', 'utf-8-validate'],
  banner: {
    js: "import { createRequire as __tabmcpRequire } from 'node:module'; const require = __tabmcpRequire(import.meta.url);",
  },
};
