import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fuzzRuns } from '../../../test-support/fuzz-runs';
import {
  BackgroundToContent,
  ContentToBackground,
  ErrorCode,
  ExtensionToServer,
  isTabEnvelope,
  parseMessage,
  ServerToExtension,
  TabEnvelope,
  validate,
} from '../src/index';

// `npm run fuzz` gives 100,000 inputs (test-support/fuzz-runs.ts); the default keeps `npm test` quick.
const runs = fuzzRuns(150);
const options = { numRuns: runs };

const shortText = fc.string({ maxLength: 24 });
const name = fc.string({ minLength: 1, maxLength: 24 });
const tabId = fc.nat({ max: 1_000_000 });
const requestId = fc.string({ minLength: 1, maxLength: 40 });
const jsonValue = fc.jsonValue({ maxDepth: 3 });
// zod's record schemas drop a "__proto__" key (safely: nothing is polluted), so a message holding one
// does not parse to itself; the other properties below still feed it.
const fieldName = shortText.filter((key) => key !== '__proto__');
const args = fc.dictionary(fieldName, jsonValue, { maxKeys: 4 });
const tool = fc.record(
  {
    name,
    description: shortText,
    inputSchema: fc.record({ type: fc.constant('object'), properties: fc.dictionary(fieldName, fc.constant({})) }),
  },
  { requiredKeys: ['name', 'inputSchema'] },
);
const tools = fc.array(tool, { maxLength: 4 });
const tabInfo = fc.record(
  { id: tabId, title: shortText, url: shortText, active: fc.boolean(), tools },
  { requiredKeys: ['id', 'title', 'url'] },
);
const browser = fc.record({ name: shortText, version: shortText });
const callResult = fc.record(
  {
    content: fc.array(fc.record({ type: fc.constant('text'), text: shortText }), { maxLength: 3 }),
    structuredContent: args,
    isError: fc.boolean(),
  },
  { requiredKeys: ['content'] },
);

const validExtensionToServer = fc.oneof(
  fc.constant({ type: 'ping' }),
  fc.record({ type: fc.constant('hello'), protocolVersion: fc.integer(), extensionVersion: shortText, browser }),
  fc.record({ type: fc.constant('connected'), requestId, browser, tabs: fc.array(tabInfo, { maxLength: 3 }) }),
  fc.constant({ type: 'disconnected' }),
  fc.record({ type: fc.constantFrom('tabCreated', 'tabUpdated'), tab: tabInfo }),
  fc.record({ type: fc.constant('tabClosed'), tabId }),
  fc.record({ type: fc.constantFrom('tabFocused', 'toolsChanged'), tabId, tools }),
  fc.record({ type: fc.constant('toolResult'), callId: requestId, result: callResult }),
  fc.record({ type: fc.constant('toolResult'), callId: requestId, error: shortText }),
  fc.record(
    {
      type: fc.constant('response'),
      requestId,
      result: jsonValue,
      error: fc.record({ code: fc.integer(), message: shortText }),
    },
    { requiredKeys: ['type', 'requestId'] },
  ),
);

const validServerToExtension = fc.oneof(
  fc.constant({ type: 'pong' }),
  fc.record({ type: fc.constant('connect'), requestId }),
  fc.record({
    type: fc.constant('openTab'),
    requestId,
    url: name,
    focus: fc.boolean(),
    waitForToolsMs: fc.nat({ max: 60_000 }),
  }),
  fc.record({ type: fc.constantFrom('focusTab', 'closeTab'), requestId, tabId }),
  fc.record({
    type: fc.constant('callTool'),
    callId: requestId,
    tabId,
    toolName: name,
    args,
    timeoutMs: fc.integer({ min: 1, max: 600_000 }),
  }),
  fc.record({
    type: fc.constant('pageRequest'),
    requestId,
    tabId,
    method: fc.constantFrom('resources/list', 'resources/read', 'prompts/list', 'prompts/get'),
  }),
);

const rpcId = fc.oneof(fc.string({ maxLength: 40 }), fc.integer());
const validContentToBackground = fc.oneof(
  fc.record({
    jsonrpc: fc.constant('2.0'),
    method: fc.constant('browser/registerTools'),
    params: fc.record(
      { tools, tabUrl: shortText, source: fc.constantFrom('mcp-b', 'window.mcp', 'webmcp', 'declarative', 'dom') },
      { requiredKeys: ['tools'] },
    ),
  }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constant('browser/updateTools'), params: fc.record({ tools }) }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: rpcId,
    result: fc.oneof(
      fc.record({ success: fc.constant(true), payload: jsonValue }),
      fc.record({ success: fc.constant(false), payload: shortText }),
    ),
  }),
);
const validBackgroundToContent = fc.oneof(
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: rpcId,
    method: fc.constant('browser/executeTool'),
    params: fc.record({ toolName: name, args }),
  }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: rpcId,
    method: fc.constant('browser/pageRequest'),
    params: fc.record({ method: fc.constantFrom('resources/list', 'prompts/get') }),
  }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    method: fc.constant('browser/documentTag'),
    params: fc.record({ tag: fc.constantFrom('a', 'k', 'z') }),
  }),
);

/** A valid message with one field removed, replaced by anything, or an unknown field added, at any depth. */
function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, fc.constantFrom('delete', 'replace', 'add'), fc.nat(), fc.anything({ maxDepth: 2 }), shortText)
    .map(([message, how, pick, value, key]) => {
      const copy = JSON.parse(JSON.stringify(message)) as unknown;
      const holders: Array<Record<string, unknown>> = [];
      const collect = (node: unknown) => {
        if (typeof node !== 'object' || node === null) return;
        holders.push(node as Record<string, unknown>);
        for (const child of Object.values(node)) collect(child);
      };
      collect(copy);
      const holder = holders[pick % holders.length];
      if (!holder) return copy;
      const keys = Object.keys(holder);
      const target = keys[pick % Math.max(1, keys.length)];
      // An array's length is not a field of the message: set it and the mutation only tests the fuzzer.
      if (how === 'add' || target === undefined)
        holder[Array.isArray(holder) && key === 'length' ? 'extra' : key] = value;
      else if (how === 'delete') delete holder[target];
      else if (!(Array.isArray(holder) && target === 'length')) holder[target] = value;
      return copy;
    });
}

function throughJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

const LINK_CODES: number[] = [ErrorCode.ParseError, ErrorCode.InvalidRequest, ErrorCode.MessageTooLarge];

function checkParse(schema: typeof ExtensionToServer | typeof ServerToExtension, raw: string) {
  const parsed = parseMessage(schema, raw, 'link message');
  if (parsed.ok) {
    // Whatever passes must pass again and survive JSON: it is about to be used and re-sent.
    assert.ok(validate(schema, JSON.parse(JSON.stringify(parsed.value)), 'again').ok);
  } else {
    assert.ok(LINK_CODES.includes(parsed.error.code), `unexpected code ${parsed.error.code}`);
    assert.match(parsed.error.message, /link message/);
  }
}

describe('fuzz: local WebSocket messages (parseMessage)', () => {
  for (const [label, schema, valid] of [
    ['ExtensionToServer', ExtensionToServer, validExtensionToServer],
    ['ServerToExtension', ServerToExtension, validServerToExtension],
  ] as const) {
    it(`${label}: every valid message parses to itself`, () => {
      fc.assert(
        fc.property(valid, (message) => {
          const parsed = parseMessage(schema, JSON.stringify(message), 'link message');
          assert.ok(parsed.ok, parsed.ok ? '' : parsed.error.message);
          assert.deepEqual(parsed.value, JSON.parse(JSON.stringify(message)));
        }),
        options,
      );
    });

    it(`${label}: random text, random JSON and mutated messages never throw and fail with a known code`, () => {
      const raw = fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.json({ maxDepth: 4 }),
        mutated(valid).map((value) => JSON.stringify(value) ?? 'null'),
        valid.chain((message) =>
          fc.nat().map((cut) => {
            const text = JSON.stringify(message);
            return text.slice(0, cut % text.length);
          }),
        ),
      );
      fc.assert(
        fc.property(raw, (text) => checkParse(schema, text)),
        options,
      );
    });
  }

  it('refuses oversize text before decoding it', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 65, maxLength: 300 }), (text) => {
        const parsed = parseMessage(ExtensionToServer, JSON.stringify(text), 'link message', 64);
        assert.equal(parsed.ok, false);
        if (!parsed.ok) assert.equal(parsed.error.code, ErrorCode.MessageTooLarge);
      }),
      options,
    );
  });
});

describe('fuzz: Port messages (validate)', () => {
  for (const [label, schema, valid] of [
    ['ContentToBackground', ContentToBackground, validContentToBackground],
    ['BackgroundToContent', BackgroundToContent, validBackgroundToContent],
  ] as const) {
    it(`${label}: valid messages pass, anything else never throws and is refused with InvalidRequest`, () => {
      fc.assert(
        fc.property(valid, (message) => assert.ok(validate(schema, message, 'port message').ok)),
        options,
      );
      fc.assert(
        // A Port carries JSON: what arrives has been through JSON, whatever the sender held.
        fc.property(fc.oneof(fc.anything({ maxDepth: 3 }), mutated(valid)).map(throughJson), (value) => {
          const result = validate(schema, value, 'port message');
          if (result.ok) assert.ok(validate(schema, JSON.parse(JSON.stringify(result.value)), 'again').ok);
          else {
            assert.equal(result.error.code, ErrorCode.InvalidRequest);
            assert.match(result.error.message, /^Invalid port message: /);
          }
        }),
        options,
      );
    });
  }
});

describe('fuzz: postMessage envelope guard (isTabEnvelope)', () => {
  const channel = fc.constantFrom('mcp-default', 'tabmcp-bridge', 'other');
  const direction = fc.constantFrom('client-to-server' as const, 'server-to-client' as const);

  it('accepts exactly the envelopes of its channel and direction, never throws on anything', () => {
    const candidate = fc.oneof(
      fc.anything({ maxDepth: 3 }),
      fc.record(
        { channel, type: fc.constantFrom('mcp', 'MCP', 'other'), direction, payload: fc.anything({ maxDepth: 2 }) },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(candidate, channel, direction, (data, wanted, way) => {
        const accepted = isTabEnvelope(data, wanted, way);
        const record = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
        const expected =
          typeof data === 'object' &&
          data !== null &&
          record.channel === wanted &&
          record.type === 'mcp' &&
          record.direction === way &&
          'payload' in record;
        assert.equal(accepted, expected);
      }),
      options,
    );
  });

  it('lets through every envelope the TabEnvelope schema accepts on its channel', () => {
    const payload = fc.oneof(
      fc.constantFrom('mcp-check-ready', 'mcp-server-ready', 'mcp-server-stopped'),
      fc.record(
        { jsonrpc: fc.constant('2.0'), id: rpcId, method: name, params: jsonValue },
        { requiredKeys: ['jsonrpc', 'id', 'method'] },
      ),
      fc.record({ jsonrpc: fc.constant('2.0'), id: rpcId, result: jsonValue }),
    );
    fc.assert(
      fc.property(channel, direction, payload, (wanted, way, body) => {
        const envelope = { channel: wanted, type: 'mcp', direction: way, payload: body };
        assert.ok(TabEnvelope.safeParse(envelope).success);
        assert.ok(isTabEnvelope(envelope, wanted, way));
      }),
      options,
    );
  });
});
