import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { jsonOf, startTabmcp, type TabmcpUnderTest, textOf, waitFor } from '../test-support/harness';

/**
 * The extension consumes every kind of page, through the built tabmcp and the official MCP SDK
 * client in real Chromium: a page built with @mcp-b/global as published, a plain WebMCP page
 * (document.modelContext), a declarative <form toolname> page, and a hand-written window.mcp
 * object whose resources and prompts reach the MCP client too.
 */
describe('interop: every kind of page reaches MCP clients', () => {
  let site: ExampleServer;
  let tabmcp: TabmcpUnderTest;
  const events: string[] = [];

  before(async () => {
    site = await startExampleServer();
    tabmcp = await startTabmcp();
    for (const [schema, name] of [
      [ResourceListChangedNotificationSchema, 'resources/list_changed'],
      [PromptListChangedNotificationSchema, 'prompts/list_changed'],
    ] as const) {
      tabmcp.client.setNotificationHandler(schema, async () => {
        events.push(name);
      });
    }
    tabmcp.client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
      events.push(`updated ${notification.params.uri}`);
    });
    const connected = await tabmcp.call('connect_browser', { launch: true });
    assert.notEqual(connected.isError, true, textOf(connected));
  });

  after(async () => {
    await tabmcp?.close();
    await site?.close();
  });

  async function open(path: string, expectedTool: string): Promise<number> {
    const opened = await tabmcp.call('open_tab', { url: `${site.url}${path}` });
    assert.notEqual(opened.isError, true, textOf(opened));
    await waitFor(async () => (await tabmcp.toolNames()).includes(expectedTool), 8_000, `${expectedTool} listed`);
    return jsonOf<{ tab: { id: number } }>(opened).tab.id;
  }

  async function pageAt(path: string): Promise<Page> {
    const browser = await tabmcp.cdp();
    const page = browser
      .contexts()
      .flatMap((context) => context.pages())
      .find((candidate) => candidate.url().endsWith(path));
    assert.ok(page, `${path} is open in the launched browser`);
    return page;
  }

  async function pageToolNames(): Promise<string[]> {
    // The core tools, and the two reading tools every page gets beside its own (docs/dom-tools.md).
    const core = new Set([
      'list_tabs',
      'open_tab',
      'focus_tab',
      'close_tab',
      'handle_dialog',
      'connect_browser',
      'get_page_content',
      'open_link',
    ]);
    return (await tabmcp.toolNames()).filter((name) => !core.has(name));
  }

  it('(b) finds and calls a tool of a page built with @mcp-b/global, listed once', async () => {
    await open('/interop/mcp-b-global.html', 'greet');
    assert.deepEqual(await pageToolNames(), ['greet']);
    const result = await tabmcp.call('greet', { name: 'Ada' });
    assert.notEqual(result.isError, true, textOf(result));
    assert.equal(textOf(result), 'Greeted Ada');
    assert.equal(await (await pageAt('/interop/mcp-b-global.html')).textContent('#greeted'), 'Hello, Ada!');
  });

  it('(c) a page that uses document.modelContext.registerTool, including a tool added later', async () => {
    await open('/interop/webmcp.html', 'add_note');
    await waitFor(async () => (await tabmcp.toolNames()).includes('count_notes'), 8_000, 'the late WebMCP tool');
    const tools = (await tabmcp.client.listTools()).tools;
    const addNote = tools.find((tool) => tool.name === 'add_note');
    assert.match(addNote?.title ?? '', /^Add a note \(from http:\/\/[^)]+\)$/, 'page titles carry their origin');
    assert.deepEqual(addNote?.inputSchema.required, ['text']);
    const added = await tabmcp.call('add_note', { text: 'buy milk' });
    assert.notEqual(added.isError, true, textOf(added));
    assert.deepEqual(JSON.parse(textOf(added)), { count: 1 });
    const invalid = await tabmcp.call('add_note', { text: '' });
    assert.equal(invalid.isError, true);
    assert.match(textOf(invalid), /text: expected at least 1 characters/);
    assert.equal(textOf(await tabmcp.call('count_notes')), '1 notes');
    assert.equal(await (await pageAt('/interop/webmcp.html')).textContent('#notes'), 'buy milk');
  });

  it('a tool whose schema is a oneOf of $refs into $defs takes valid calls (issue 14, defect 12)', async () => {
    const page = await pageAt('/interop/webmcp.html');
    await page.evaluate(`document.modelContext.registerTool({
      name: 'pin_note',
      description: 'Pins a note by its position or its text.',
      inputSchema: {
        type: 'object',
        properties: { note: { oneOf: [{ $ref: '#/$defs/byIndex' }, { $ref: '#/$defs/byText' }] } },
        required: ['note'],
        $defs: {
          byIndex: { type: 'object', properties: { index: { type: 'integer' } }, required: ['index'], additionalProperties: false },
          byText: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
        },
      },
      execute: ({ note }) => 'pinned ' + JSON.stringify(note),
    })`);
    await waitFor(async () => (await tabmcp.toolNames()).includes('pin_note'), 8_000, 'pin_note listed');
    const byText = await tabmcp.call('pin_note', { note: { text: 'buy milk' } });
    assert.notEqual(byText.isError, true, textOf(byText));
    assert.equal(textOf(byText), 'pinned {"text":"buy milk"}');
    const invalid = await tabmcp.call('pin_note', { note: { index: 'first' } });
    assert.equal(invalid.isError, true);
    assert.match(textOf(invalid), /arguments\.note: does not match exactly one of the allowed shapes/);
  });

  it('(d) a declarative <form toolname> is a tool: schema from its inputs, a call fills and submits it', async () => {
    await open('/interop/declarative-form.html', 'subscribe');
    const tool = (await tabmcp.client.listTools()).tools.find((candidate) => candidate.name === 'subscribe');
    assert.match(tool?.description ?? '', /Subscribe an email address to the newsletter/);
    assert.deepEqual(tool?.inputSchema, {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email', description: 'Email' },
        topic: { type: 'string', enum: ['tea', 'mugs'], description: 'Topic' },
        copies: { type: 'number', minimum: 1, maximum: 5, description: 'Copies per issue, 1 to 5' },
        weekly: { type: 'boolean', description: 'Weekly' },
      },
      required: ['email'],
    });
    const refused = await tabmcp.call('subscribe', { email: 'not an email', topic: 'tea' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /email/);
    const result = await tabmcp.call('subscribe', { email: 'ada@example.com', topic: 'mugs', copies: 2, weekly: true });
    assert.notEqual(result.isError, true, textOf(result));
    assert.match(textOf(result), /submitted the form "subscribe"/);
    assert.equal(
      await (await pageAt('/interop/declarative-form.html')).textContent('#result'),
      'subscribed ada@example.com to mugs x2 weekly=true',
    );
  });

  it('(e) a hand-written window.mcp object: tools, resources, templates, prompts and their notifications', async () => {
    events.length = 0;
    await open('/interop/hand-written.html', 'increment');
    await waitFor(
      () => events.includes('resources/list_changed') && events.includes('prompts/list_changed'),
      5_000,
      'focus change announced',
    );
    const resources = await tabmcp.client.listResources();
    assert.deepEqual(
      resources.resources.map((r) => r.uri),
      ['counter://value'],
    );
    const templates = await tabmcp.client.listResourceTemplates();
    assert.deepEqual(
      templates.resourceTemplates.map((t) => t.uriTemplate),
      ['counter://times/{n}'],
    );
    await tabmcp.client.subscribeResource({ uri: 'counter://value' });
    const result = await tabmcp.call('increment', { by: 2 });
    assert.equal(textOf(result), '2');
    await waitFor(() => events.includes('updated counter://value'), 5_000, 'resources/updated');
    const read = await tabmcp.client.readResource({ uri: 'counter://value' });
    // Page text, marked with its origin (docs/security.md).
    const [value] = read.contents as Array<{ uri: string; mimeType: string; text: string }>;
    assert.deepEqual([value?.uri, value?.mimeType], ['counter://value', 'text/plain']);
    assert.match(value?.text ?? '', /^\[page resource from http:\/\/127\.0\.0\.1:\d+\] 2$/);
    const times = await tabmcp.client.readResource({ uri: 'counter://times/5' });
    assert.match((times.contents[0] as { text: string }).text, /\] 10$/);
    const prompts = await tabmcp.client.listPrompts();
    assert.deepEqual(
      prompts.prompts.map((p) => p.name),
      ['explain'],
    );
    const prompt = await tabmcp.client.getPrompt({ name: 'explain', arguments: { tone: 'calm' } });
    // Page-written prompt text is marked with its origin (issue 13).
    const message = prompt.messages[0];
    assert.equal(message?.role, 'user');
    assert.match(
      (message?.content as { text: string } | undefined)?.text ?? '',
      /^\[page prompt message \(written as user\) from http:\/\/[^\]]+\] In a calm tone, explain count=2$/,
    );
    // MCP 2025-11-25's "Resource not found" (-32002), with the page's own reason (issue 28).
    await assert.rejects(
      tabmcp.client.readResource({ uri: 'counter://nothing' }),
      (error: Error & { code?: number }) => {
        assert.equal(error.code, -32002);
        assert.match(error.message, /could not answer resources\/read: .*No resource counter:\/\/nothing/);
        return true;
      },
    );
    assert.equal(await (await pageAt('/interop/hand-written.html')).textContent('#count'), '2');
  });

  it('without a focused tab, resources and prompts are empty and a read says what to do', async () => {
    const changed = tabmcp.nextListChanged();
    await tabmcp.call('close_tab');
    await changed;
    assert.deepEqual((await tabmcp.client.listResources()).resources, []);
    assert.deepEqual((await tabmcp.client.listPrompts()).prompts, []);
    // The spec's resource-not-found answer of this client's revision (2025-11-25: -32002; -32602
    // from 2026-07-28), with one "MCP error" prefix, the client's own: the server's message carries none.
    await assert.rejects(tabmcp.client.readResource({ uri: 'counter://value' }), (error: Error & { code?: number }) => {
      assert.equal(error.code, -32002);
      assert.match(error.message, /^MCP error -32002: Resource counter:\/\/value not found\. No tab is focused/);
      assert.doesNotMatch(error.message.slice(10), /MCP error/);
      return true;
    });
    // An unknown prompt is invalid params (-32602), not an invalid request (-32600).
    await assert.rejects(tabmcp.client.getPrompt({ name: 'explain' }), (error: Error & { code?: number }) => {
      assert.equal(error.code, -32602);
      assert.match(error.message, /Unknown prompt "explain"\. No tab is focused/);
      return true;
    });
  });
});
