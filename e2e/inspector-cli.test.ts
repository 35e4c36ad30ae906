import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type BenchSite, startBenchSite } from '../test-support/bench-site';
import { type InspectorCli, installInspector } from '../test-support/inspector-cli';
import { serverBin } from '../test-support/paths';
import { type Agent, type Machine, newMachine, startAgent } from '../test-support/server-harness';

/**
 * Issue 11, "what must be shown": the MCP Inspector's CLI, which starts a fresh tabmcp for every
 * call, reaches a page tool in auto-connect mode. One tabmcp owns a launched browser with the
 * bench page open; each Inspector call is a process of its own that joins it.
 */
describe('the MCP Inspector CLI reaches a page tool (--auto-connect)', () => {
  let site: BenchSite;
  let machine: Machine;
  let owner: Agent;
  let inspector: InspectorCli;
  let tabmcp: string[];

  before(async () => {
    inspector = installInspector();
    site = await startBenchSite();
    machine = await newMachine();
    owner = await startAgent(machine, ['--launch']);
    await owner.json('connect_browser');
    await owner.json('open_tab', { url: `${site.url}/echo.html` });
    tabmcp = [
      '-e',
      `TABMCP_HOME=${machine.home}`,
      process.execPath,
      serverBin,
      '--auto-connect',
      '--port',
      String(machine.port),
    ];
  });

  after(async () => {
    await owner?.close();
    await site?.close();
    machine?.close();
  });

  it('tools/list, then tools/call of the page tool, one process each', async () => {
    const listed = JSON.parse(await inspector.run([...tabmcp, '--method', 'tools/list'])) as {
      tools: Array<{ name: string }>;
    };
    const names = listed.tools.map((tool) => tool.name);
    assert.ok(names.includes('list_tabs'), names.join(', '));
    const echo = names.find((name) => /^website_tool_.*_echo$/.test(name));
    assert.ok(echo, `no page tool listed: ${names.join(', ')}`);

    const called = JSON.parse(
      await inspector.run([
        ...tabmcp,
        '--method',
        'tools/call',
        '--tool-name',
        echo,
        '--tool-arg',
        'text=from the inspector',
      ]),
    ) as { content: Array<{ text?: string }>; isError?: boolean };
    assert.notEqual(called.isError, true, JSON.stringify(called));
    assert.match(called.content.map((block) => block.text ?? '').join(''), /from the inspector/);
  });
});
