import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type McpNotificationDetail, McpWindowClient, McpWindowProvider, serveWindow } from '../src/index';
import { createRealms, type FakeWindow, nest } from './fake-windows';

function shopProvider(calls: string[]): McpWindowProvider {
  const mcp = new McpWindowProvider({ name: 'shop', version: '2.0.0' });
  mcp.addTool(
    {
      name: 'add_to_cart',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    },
    ({ id }) => {
      calls.push(String(id));
      return `added ${id}`;
    },
  );
  mcp.addResource({ uri: 'shop://cart', name: 'Cart' }, (uri) => ({ contents: [{ uri, text: calls.join(',') }] }));
  mcp.addPrompt({ name: 'greet' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }));
  return mcp;
}

const asWindow = (fake: FakeWindow) => fake as unknown as Window;

/** How many listeners the provider holds now, counted as they are added and removed. */
function countListeners(provider: McpWindowProvider): () => number {
  let listeners = 0;
  const add = provider.addEventListener.bind(provider);
  const remove = provider.removeEventListener.bind(provider);
  provider.addEventListener = (...args: Parameters<typeof add>) => {
    listeners++;
    add(...args);
  };
  provider.removeEventListener = (...args: Parameters<typeof remove>) => {
    listeners--;
    remove(...args);
  };
  return () => listeners;
}

function nextNotification(client: McpWindowClient): Promise<McpNotificationDetail> {
  return new Promise((resolve) => {
    const stop = client.onNotification((detail) => {
      stop();
      resolve(detail);
    });
  });
}

async function exercise(client: McpWindowClient, provider: McpWindowProvider, calls: string[]) {
  await client.connect();
  assert.deepEqual(await client.getServerInfo(), { name: 'shop', version: '2.0.0' });
  assert.ok((await client.getCapabilities()).tools);
  assert.deepEqual(
    (await client.listTools()).tools.map((tool) => tool.name),
    ['add_to_cart'],
  );
  const result = await client.callTool('add_to_cart', { id: 'p1' });
  assert.deepEqual(result.content, [{ type: 'text', text: 'added p1' }]);
  const invalid = await client.callTool({ name: 'add_to_cart', arguments: {} });
  assert.equal(invalid.isError, true);
  assert.match(String(invalid.content[0]?.text), /arguments\.id: required/);
  assert.deepEqual(calls, ['p1']);
  assert.deepEqual((await client.readResource('shop://cart')).contents, [{ uri: 'shop://cart', text: 'p1' }]);
  assert.deepEqual(
    (await client.listResources()).resources.map((r) => r.uri),
    ['shop://cart'],
  );
  assert.equal((await client.getPrompt('greet')).messages.length, 1);
  const notified = nextNotification(client);
  provider.addTool({ name: 'late' }, () => 'late');
  assert.deepEqual(await notified, { type: 'toolsListChanged' });
  const updated = nextNotification(client);
  provider.resourceUpdated('shop://cart');
  assert.deepEqual(await updated, { type: 'resourceUpdated', uri: 'shop://cart' });
}

describe('McpWindowClient', () => {
  it('uses a provider on the same window under a chosen namespace', async () => {
    const [page] = createRealms('https://shop.example');
    assert.ok(page);
    const calls: string[] = [];
    const provider = shopProvider(calls);
    provider.exposeOnWindow('shopMcp', page);
    const client = new McpWindowClient({ window: asWindow(page.self), namespace: 'shopMcp' });
    await exercise(client, provider, calls);
    client.close();
  });

  it('reaches a provider in a cross-origin iframe, and one in the parent from the iframe', async () => {
    const [parent, child] = createRealms('https://assistant.example', 'https://shop.example');
    assert.ok(parent && child);
    nest(parent, child);
    const childCalls: string[] = [];
    const inChild = shopProvider(childCalls);
    const childServer = serveWindow(inChild, {
      allowedOrigins: [parent.location.origin],
      window: asWindow(child.self),
    });
    const fromParent = new McpWindowClient({
      window: asWindow(parent.self),
      target: asWindow(parent.view(child)),
      allowedOrigins: [child.location.origin],
    });
    await exercise(fromParent, inChild, childCalls);

    const parentCalls: string[] = [];
    const inParent = shopProvider(parentCalls);
    const parentServer = serveWindow(inParent, {
      allowedOrigins: [child.location.origin],
      window: asWindow(parent.self),
    });
    const fromChild = new McpWindowClient({
      window: asWindow(child.self),
      target: 'parent',
      allowedOrigins: ['https://other.example', parent.location.origin],
    });
    await exercise(fromChild, inParent, parentCalls);
    for (const closable of [fromParent, fromChild, childServer, parentServer]) closable.close();
  });

  it('refuses a window whose origin is not allowed: nothing runs and the client gets a clear error', async () => {
    const [parent, child] = createRealms('https://evil.example', 'https://shop.example');
    assert.ok(parent && child);
    const calls: string[] = [];
    const refused: string[] = [];
    const server = serveWindow(shopProvider(calls), {
      allowedOrigins: ['https://assistant.example'],
      window: asWindow(child.self),
      onRefused: (origin) => refused.push(origin),
    });
    const client = new McpWindowClient({
      window: asWindow(parent.self),
      target: asWindow(parent.view(child)),
      allowedOrigins: [child.location.origin],
      connectTimeoutMs: 200,
    });
    await assert.rejects(
      client.connect(),
      /No MCP provider answered from https:\/\/shop\.example.*allow this origin \(https:\/\/evil\.example\)/,
    );
    assert.ok(refused.length > 0 && refused.every((origin) => origin === 'https://evil.example'));
    assert.deepEqual(calls, []);
    server.close();
  });

  it("answers a client that targets the wrong origin with silence, and accepts '*' only when named", async () => {
    const [parent, child] = createRealms('https://assistant.example', 'https://shop.example');
    assert.ok(parent && child);
    assert.throws(
      () => serveWindow(shopProvider([]), { allowedOrigins: [], window: asWindow(child.self) }),
      /allowedOrigins/,
    );
    const server = serveWindow(shopProvider([]), { allowedOrigins: ['*'], window: asWindow(child.self) });
    const wrongOrigin = new McpWindowClient({
      window: asWindow(parent.self),
      target: asWindow(parent.view(child)),
      allowedOrigins: ['https://not-the-shop.example'],
      connectTimeoutMs: 150,
    });
    await assert.rejects(wrongOrigin.connect(), /No MCP provider answered/);
    const any = new McpWindowClient({
      window: asWindow(parent.self),
      target: asWindow(parent.view(child)),
      allowedOrigins: ['*'],
    });
    await any.connect();
    assert.equal((await any.listTools()).tools.length, 1);
    any.close();
    server.close();
  });

  it('says so when no provider exists and when a call is made before connect', async () => {
    const [page] = createRealms('https://shop.example');
    assert.ok(page);
    const client = new McpWindowClient({ window: asWindow(page.self), connectTimeoutMs: 60 });
    await assert.rejects(client.listTools(), /not connected: await client\.connect\(\) first/);
    await assert.rejects(client.connect(), /No MCP provider found at window\.mcp within 60 ms/);
  });

  it('times out a same-window call whose handler never answers', async () => {
    const [page] = createRealms('https://shop.example');
    assert.ok(page);
    const provider = new McpWindowProvider({ name: 'p', version: '1' });
    provider.listTools = () => new Promise(() => {});
    provider.exposeOnWindow('mcp', page);
    const client = new McpWindowClient({ window: asWindow(page.self), requestTimeoutMs: 40 });
    await client.connect();
    await assert.rejects(client.listTools(), /did not answer tools\/list within 40 ms/);
    client.close();
  });
});

describe('McpWindowClient.connect (issue 14, defect 16)', () => {
  // The timeout turns the old hang into a failure rather than a test that never ends.
  it('gives up on a provider whose getServerInfo never answers, and leaves no listener behind', {
    timeout: 5_000,
  }, async () => {
    const [page] = createRealms('https://shop.example');
    assert.ok(page);
    const provider = new McpWindowProvider({ name: 'p', version: '1' });
    provider.getServerInfo = () => new Promise(() => {});
    const listeners = countListeners(provider);
    provider.exposeOnWindow('mcp', page);
    const client = new McpWindowClient({ window: asWindow(page.self), connectTimeoutMs: 50 });
    await assert.rejects(client.connect(), /did not answer getServerInfo within 50 ms/);
    assert.equal(listeners(), 0);
  });
});

describe('McpWindowClient against odd providers and races (issue 27)', () => {
  it('D13: a minimal window.mcp gets a clear error naming what it lacks, not a raw TypeError', async () => {
    const [page] = createRealms('https://shop.example');
    assert.ok(page);
    const minimal = new EventTarget() as EventTarget & Record<string, unknown>;
    minimal.listTools = async () => ({ tools: [] });
    minimal.callTool = async () => ({ content: [] });
    (page.self as unknown as Record<string, unknown>).mcp = minimal;
    const client = new McpWindowClient({ window: asWindow(page.self), connectTimeoutMs: 200 });
    await assert.rejects(client.connect(), (error: Error) => {
      assert.doesNotMatch(error.message, /is not a function/);
      assert.match(
        error.message,
        /window\.mcp is not a complete MCP provider: it lacks getServerInfo, getCapabilities/,
      );
      return true;
    });
  });

  it('D24: close() during a pending connect() leaves the client closed, with no listener behind', async () => {
    const [page] = createRealms('https://shop.example');
    assert.ok(page);
    const provider = new McpWindowProvider({ name: 'p', version: '1' });
    let answerInfo: () => void = () => {};
    const info = provider.getServerInfo.bind(provider);
    provider.getServerInfo = () => new Promise((done) => (answerInfo = () => done(info())));
    const listeners = countListeners(provider);
    provider.exposeOnWindow('mcp', page);
    const client = new McpWindowClient({ window: asWindow(page.self), connectTimeoutMs: 2_000 });
    const connecting = client.connect();
    await new Promise((done) => setImmediate(done));
    client.close();
    answerInfo();
    await assert.rejects(connecting, /closed while connecting/);
    assert.equal(client.connected, false);
    assert.equal(listeners(), 0);
  });

  it('D25: a bad percent-encoding in a resource URI gets a clear error, not a bare URIError', async () => {
    const provider = new McpWindowProvider({ name: 'p', version: '1' });
    provider.addResourceTemplate({ uriTemplate: 'product://{id}', name: 'Product' }, (uri) => ({
      contents: [{ uri, text: 'x' }],
    }));
    await assert.rejects(provider.readResource({ uri: 'product://%E0%A4%A' }), (error: Error) => {
      assert.notEqual(error.name, 'URIError');
      assert.match(error.message, /bad percent-encoding in \{id\}.*encodeURIComponent/);
      return true;
    });
  });
});

describe('serveWindow limits', () => {
  it('answers an oversized request with an error instead of running it', async () => {
    const [parent, child] = createRealms('https://assistant.example', 'https://shop.example');
    assert.ok(parent && child);
    const calls: string[] = [];
    const server = serveWindow(shopProvider(calls), {
      allowedOrigins: [parent.location.origin],
      window: asWindow(child.self),
    });
    const client = new McpWindowClient({
      window: asWindow(parent.self),
      target: asWindow(parent.view(child)),
      allowedOrigins: [child.location.origin],
    });
    await client.connect();
    await assert.rejects(client.callTool('add_to_cart', { id: 'x'.repeat(4 * 1024 * 1024 + 1) }), /larger than/);
    const notAnObject = await client.callTool({ name: 'add_to_cart', arguments: ['p1'] as never });
    assert.match(String(notAnObject.content[0]?.text), /expected an object of named arguments/);
    assert.deepEqual(calls, []);
    client.close();
    server.close();
  });
});
