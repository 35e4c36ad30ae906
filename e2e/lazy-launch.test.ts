import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../test-support/net';
import { textOf } from '../test-support/results';
import type { StdioMcp } from '../test-support/stdio-client';
import { startTabmcpProcess } from '../test-support/tabmcp-process';

/**
 * Issue 11: `tabmcp --launch` starts Chromium at the first need, not at process start, so a
 * client that only initializes and lists tools (`claude mcp list`, a protocol probe) starts no
 * browser; the first connect_browser then launches it without being told to.
 */
describe('--launch launches on first need', () => {
  let tabmcp: StdioMcp;
  before(async () => {
    tabmcp = await startTabmcpProcess({
      args: ['--launch', '--headless', '--port', String(await freePort())],
      clientName: 'tabmcp-lazy-launch',
    });
  });
  after(() => tabmcp?.close());

  it('initialize and tools/list start no browser', async () => {
    const names = await tabmcp.toolNames();
    assert.ok(names.includes('connect_browser'), names.join(', '));
    // A health check ends here; give a would-be launch the time it used to take to show up in the log.
    await new Promise((settle) => setTimeout(settle, 1_500));
    assert.doesNotMatch(tabmcp.stderr(), /"event":"browser.launched"/);
  });

  it('the first connect_browser launches it', async () => {
    const connected = await tabmcp.call('connect_browser');
    assert.notEqual(connected.isError, true, textOf(connected));
    assert.match(tabmcp.stderr(), /"event":"browser.launched"/);
  });
});
