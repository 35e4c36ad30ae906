import { config } from 'zod/v4/core';

// zod compiles no parsers in the content script: the isolated world's CSP refuses `new Function`, and
// zod's probe for it, at the first object schema built, throws a CSP error that cost about 1 ms of
// every page load. content-script.ts imports this first, before any module that builds a schema.
config({ jitless: true });
