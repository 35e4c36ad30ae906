// build.mjs points zod's `locales/index.js` here: tabmcp speaks English only, and zod's other 45
// locales would add about 350 KB to every bundle that uses zod (the server's memory, the content
// script injected into every tab, the extension worker's start, the popup and the options page).
// A build-time substitution in a dependency, so (docs/decisions.md, 127):
// - pinned: zod 4.6.7 exactly, in every package.json that declares it;
// - upstream: colinhacks/zod#6050 (`export * as locales` cannot be tree-shaken), closed as fixed by
//   #6384, yet esbuild still bundles every locale of a stock zod 4.6.7 (`import { z } from 'zod'`,
//   minified: 454 KB stock, 193 KB with this file);
// - delete when: a stock build of that one line is no larger than with this file.
export { default as en } from 'zod/v4/locales/en.js';
