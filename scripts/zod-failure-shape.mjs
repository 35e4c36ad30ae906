// zod 4.6 answers a failing `safeParse` with an object literal whose `error` is a getter/setter pair
// over fresh closures (the error is built on first read). V8 allocates every such accessor pair in
// old space, and until the next mark-compact each dead pair keeps its closures, and through them the
// whole parse context, alive across scavenges: the MCP SDK runs two or three failing `safeParse`s per
// inbound message (`isJSONRPCResultResponse`, `isJSONRPCErrorResponse`, ...), so every message
// promoted ~4 KB into old space and the server's resident memory climbed with the calls.
// build.mjs rewrites `failure()` into one class whose accessor lives on its prototype: same fields,
// same lazily built error, one hidden class, nothing allocated in old space per failure.
// Measured in docs/decisions.md ("Issue 11: memory under the bar"); tested in test/zod-failure-shape.test.ts.
import { readFile } from 'node:fs/promises';

const START = 'function failure(Err, issues, ctx) {';
const END = '\nexport const _safeParseAsync';

const FAILURE_CLASS = `function failure(Err, issues, ctx) {
    return new SafeParseFailure(Err, issues, ctx);
}
class SafeParseFailure {
    success = false;
    #Err;
    #issues;
    #ctx;
    #error;
    constructor(Err, issues, ctx) {
        this.#Err = Err;
        this.#issues = issues;
        this.#ctx = ctx;
    }
    get error() {
        if (!this.#error) {
            this.#error = new this.#Err(this.#issues.map((iss) => util.finalizeIssue(iss, this.#ctx, core.config())));
            this.#issues = undefined;
            this.#ctx = undefined;
        }
        return this.#error;
    }
    set error(e) {
        this.#error = e;
        this.#issues = undefined;
        this.#ctx = undefined;
    }
}
`;

/** zod's `v4/core/parse.js` with `failure()` rewritten; throws if zod's source no longer matches. */
export function withFailureClass(source) {
  const start = source.indexOf(START);
  const end = source.indexOf(END, start);
  const body = start === -1 || end === -1 ? '' : source.slice(start, end);
  if (!body.includes('get error()') || !body.includes('util.finalizeIssue') || !body.includes('core.config()')) {
    throw new Error(
      "zod's v4/core/parse.js no longer has the failure() that scripts/zod-failure-shape.mjs rewrites: check whether the new zod still allocates an accessor pair per failed safeParse, then update or drop the rewrite",
    );
  }
  return `${source.slice(0, start)}${FAILURE_CLASS}${source.slice(end)}`;
}

/** esbuild plugin: every bundle that includes zod gets the rewritten `failure()`. */
export const zodFailureShape = {
  name: 'zod-failure-shape',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]core[\\/]parse\.js$/ }, async (args) => ({
      contents: withFailureClass(await readFile(args.path, 'utf8')),
      loader: 'js',
    }));
  },
};
