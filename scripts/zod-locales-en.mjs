// build.mjs points zod's `locales/index.js` here: tabmcp speaks English only, and zod's other 45
// locales would add about 350 KB to every bundle that uses zod (the server's memory, the content
// script injected into every tab, the extension worker's start).
export { default as en } from 'zod/v4/locales/en.js';
