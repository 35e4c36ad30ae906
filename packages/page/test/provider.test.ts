import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { type McpNotificationDetail, McpWindowProvider, McpWindowProviderSDK } from '../src/index';

function textOf(result: { content: Array<{ type: string; text?: unknown }> }): string {
  return result.content.map((block) => String(block.text ?? '')).join('\n');
}

function collect(provider: McpWindowProvider): McpNotificationDetail[] {
  const seen: McpNotificationDetail[] = [];
  provider.addEventListener('mcpNotification', (event) => seen.push((event as CustomEvent).detail));
  return seen;
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('McpWindowProvider', () => {
  it('lists and calls tools, with server info and capabilities', async () => {
    const mcp = new McpWindowProvider({ name: 'shop', version: '1.2.0' }, { tools: true, resources: true });
    mcp.addTool(
      {
        name: 'add',
        description: 'Adds',
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
        },
      },
      ({ a, b }) => `${Number(a) + Number(b)}`,
    );
    assert.deepEqual(await mcp.getServerInfo(), { name: 'shop', version: '1.2.0' });
    const capabilities = await mcp.getCapabilities();
    assert.ok(capabilities.tools && capabilities.resources);
    assert.equal(capabilities.prompts, undefined);
    assert.deepEqual(
      (await mcp.listTools()).tools.map((tool) => tool.name),
      ['add'],
    );
    assert.equal(textOf(await mcp.callTool({ name: 'add', arguments: { a: 2, b: 3 } })), '5');
  });

  it('refuses bad arguments before the handler runs, naming the field and what was expected', async () => {
    const mcp = new McpWindowProvider({ name: 'p', version: '1' });
    let ran = 0;
    mcp.addTool(
      {
        name: 'order',
        inputSchema: {
          type: 'object',
          properties: { qty: { type: 'integer', minimum: 1 }, sku: { type: 'string' } },
          required: ['sku'],
        },
      },
      () => {
        ran += 1;
        return 'ok';
      },
    );
    const result = await mcp.callTool({ name: 'order', arguments: { qty: 'two' } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /arguments\.qty: expected integer, got string/);
    assert.match(textOf(result), /arguments\.sku: required/);
    assert.equal(ran, 0);
    await assert.rejects(mcp.callTool({ name: 'nope' }), /Unknown tool "nope"\. Tools on this page: order/);
  });

  it('follows $refs within the schema: oneOf of two $ref branches takes a call that fits one (issue 14, defect 12)', async () => {
    const mcp = new McpWindowProvider({ name: 'p', version: '1' });
    const ran: unknown[] = [];
    mcp.addTool(
      {
        name: 'pick',
        inputSchema: {
          type: 'object',
          properties: { target: { oneOf: [{ $ref: '#/$defs/byId' }, { $ref: '#/$defs/byName' }] } },
          required: ['target'],
          $defs: {
            byId: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
            byName: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
      },
      ({ target }) => {
        ran.push(target);
        return 'ok';
      },
    );
    const byName = await mcp.callTool({ name: 'pick', arguments: { target: { name: 'seven' } } });
    assert.notEqual(byName.isError, true, textOf(byName));
    const neither = await mcp.callTool({ name: 'pick', arguments: { target: { id: 'seven' } } });
    assert.match(textOf(neither), /arguments\.target: does not match exactly one of the allowed shapes/);
    assert.deepEqual(ran, [{ name: 'seven' }]);
  });

  it("runs docs/requirements.md#page-sdk's example with zod (inputSchemaDef) and a zod object schema", async () => {
    const provider = new McpWindowProviderSDK({ name: 'MyWebApp', version: '0.1' }, { resources: true, tools: true });
    const shown: string[] = [];
    provider.addTool(
      { name: 'showAlert', description: 'Shows a browser alert', inputSchemaDef: { message: z.string() } },
      async (args) => {
        shown.push(String(args.message));
        return { content: [{ type: 'text', text: 'Alert shown.' }] };
      },
    );
    provider.addTool(
      {
        name: 'subscribe',
        inputSchema: z.object({ email: z.email(), weekly: z.boolean().default(false) }),
      },
      (args) => args,
    );
    const [alert, subscribe] = (await provider.listTools()).tools;
    assert.deepEqual(alert?.inputSchema, {
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    });
    assert.equal(subscribe?.inputSchema.type, 'object');
    assert.equal(textOf(await provider.callTool({ name: 'showAlert', arguments: { message: 'Hi' } })), 'Alert shown.');
    assert.deepEqual(shown, ['Hi']);
    const wrongType = await provider.callTool({ name: 'showAlert', arguments: { message: 3 } });
    assert.match(textOf(wrongType), /arguments\.message: Invalid input: expected string, received number/);
    const badEmail = await provider.callTool({ name: 'subscribe', arguments: { email: 'not-an-email' } });
    assert.equal(badEmail.isError, true);
    assert.match(textOf(badEmail), /arguments\.email: Invalid email/);
    const good = await provider.callTool({ name: 'subscribe', arguments: { email: 'a@b.co' } });
    assert.deepEqual(JSON.parse(textOf(good)), { email: 'a@b.co', weekly: false }, 'zod defaults reach the handler');
  });

  it('returns structuredContent for tools with an output schema and checks it', async () => {
    const mcp = new McpWindowProvider({ name: 'p', version: '1' });
    const outputSchema = {
      type: 'object' as const,
      properties: { total: { type: 'number' } },
      required: ['total'],
    };
    mcp.addTool({ name: 'total', outputSchema }, () => ({ total: 12.5 }));
    mcp.addTool({ name: 'broken', outputSchema }, () => ({ sum: 1 }));
    const good = await mcp.callTool({ name: 'total' });
    assert.deepEqual(good.structuredContent, { total: 12.5 });
    assert.deepEqual(JSON.parse(textOf(good)), { total: 12.5 });
    const broken = await mcp.callTool({ name: 'broken' });
    assert.equal(broken.isError, true);
    assert.match(textOf(broken), /output schema.*result\.total: required/);
  });

  it('turns a throwing or hanging handler into an error result', async () => {
    const mcp = new McpWindowProvider({ name: 'p', version: '1' }, { toolTimeoutMs: 30 });
    mcp.addTool({ name: 'boom' }, () => {
      throw new Error('out of stock');
    });
    mcp.addTool({ name: 'hang' }, () => new Promise(() => {}));
    const boom = await mcp.callTool({ name: 'boom' });
    assert.equal(boom.isError, true);
    assert.match(textOf(boom), /boom failed: out of stock/);
    const hang = await mcp.callTool({ name: 'hang' });
    assert.equal(hang.isError, true);
    assert.match(textOf(hang), /hang failed: timed out after 30 ms/);
    mcp.addResource({ uri: 'page://slow', name: 'Slow' }, () => new Promise(() => {}));
    await assert.rejects(mcp.readResource({ uri: 'page://slow' }), /timed out after 30 ms/);
  });

  it('coalesces 50 registrations in one task into one notification', async () => {
    const mcp = new McpWindowProvider({ name: 'p', version: '1' });
    const seen = collect(mcp);
    const registrations = Array.from({ length: 50 }, (_, index) => mcp.addTool({ name: `t${index}` }, () => 'ok'));
    await nextTask();
    assert.deepEqual(seen, [{ type: 'toolsListChanged' }]);
    for (const registration of registrations.slice(0, 10)) registration.remove();
    mcp.removeTool('t10');
    await nextTask();
    assert.equal(seen.length, 2);
    assert.equal((await mcp.listTools()).tools.length, 39);
  });

  it('serves static and templated resources, and announces updates with their URI', async () => {
    const mcp = new McpWindowProvider({ name: 'p', version: '1' });
    const seen = collect(mcp);
    mcp.addResource({ uri: 'page://title', name: 'Title' }, (uri) => ({ contents: [{ uri, text: 'Shop' }] }));
    const template = mcp.addResourceTemplate({ uriTemplate: 'product://{id}', name: 'Product' }, (uri, { id }) => ({
      contents: [{ uri, text: `product ${id}` }],
    }));
    const listed = await mcp.listResources();
    assert.deepEqual(
      listed.resources.map((r) => r.uri),
      ['page://title'],
    );
    assert.deepEqual(
      listed.resourceTemplates.map((r) => r.uriTemplate),
      ['product://{id}'],
    );
    assert.equal((await mcp.readResource({ uri: 'product://p%201' })).contents[0]?.text, 'product p 1');
    await assert.rejects(mcp.readResource({ uri: 'page://nothing' }), /Unknown resource "page:\/\/nothing"/);
    await nextTask();
    mcp.resourceUpdated('page://title');
    mcp.resourceUpdated('product://7');
    template.remove();
    await nextTask();
    assert.deepEqual(seen, [
      { type: 'resourcesListChanged' },
      { type: 'resourceUpdated', uri: 'page://title' },
      { type: 'resourceUpdated', uri: 'product://7' },
      { type: 'resourcesListChanged' },
    ]);
    assert.equal(mcp.removeResource('page://title'), true);
    assert.deepEqual(await mcp.listResources(), { resources: [], resourceTemplates: [] });
  });

  it('serves prompts and names missing arguments', async () => {
    const mcp = new McpWindowProvider({ name: 'p', version: '1' });
    mcp.addPrompt({ name: 'review', arguments: [{ name: 'product', required: true }] }, ({ product }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Review ${product}` } }],
    }));
    assert.deepEqual(
      (await mcp.listPrompts()).prompts.map((p) => p.name),
      ['review'],
    );
    const prompt = await mcp.getPrompt({ name: 'review', arguments: { product: 'Teapot' } });
    assert.deepEqual(prompt.messages[0]?.content, { type: 'text', text: 'Review Teapot' });
    await assert.rejects(mcp.getPrompt({ name: 'review' }), /needs: product/);
    assert.equal(mcp.removePrompt('review'), true);
  });

  it('exposes itself on a namespace the page chooses', () => {
    const target: Record<string, unknown> = {};
    const mcp = new McpWindowProvider({ name: 'p', version: '1' }).exposeOnWindow('shopTools', target);
    assert.equal(target.shopTools, mcp);
    assert.throws(
      () => mcp.addTool({ name: 'x', inputSchema: { type: 'string' } as never }, () => ''),
      /type "object"/,
    );
  });
});
