import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { authenticateListener } from '../packages/server/src/link/link-auth';
import { waitFor } from '../test-support/harness';
import { type HubSite, startHubSite } from '../test-support/hub-fixture';
import { type Agent, type Machine, newMachine, startAgent } from '../test-support/server-harness';

type LinkMessage = { type: string; requestId?: string; changed?: Array<{ name: string }>; removed?: string[] };

/**
 * Issue 24, item 4: the hub's `all` view list reaches only servers whose view reads it, and as
 * changes. Two tabmcp servers share one real Chromium: the owner shows the focused tab, a peer
 * shows the `all` view. A third peer, this test's own WebSocket, sees what a server is sent.
 */
describe('the hub catalog: only to servers that watch it, and only what changed', () => {
  let site: HubSite;
  let machine: Machine;
  let focused: Agent;
  let all: Agent;
  let observer: WebSocket;
  const heard: LinkMessage[] = [];
  let domain = '';

  before(async () => {
    site = await startHubSite('127.0.0.1');
    domain = `127_0_0_1_${new URL(site.url('127.0.0.1')).port}`;
    machine = await newMachine();
    focused = await startAgent(machine, ['--launch']);
    await focused.json('connect_browser');
    all = await startAgent(machine, ['--view', 'all']);
    await waitFor(async () => (await all.call('connect_browser')).isError !== true, 20_000, 'the all view joined');
    observer = new WebSocket(`ws://127.0.0.1:${machine.port}/peer`);
    await authenticateListener(observer, machine.token);
    observer.on('message', (raw) => heard.push(JSON.parse(raw.toString()) as LinkMessage));
  });

  after(async () => {
    observer?.close();
    await all?.close();
    await focused?.close();
    await site?.close();
    machine?.close();
  });

  const hubNames = async () => (await all.toolNames()).filter((name) => name.startsWith('website_tool_'));
  const catalogHeard = () => heard.filter((message) => message.type === 'hubToolsChanged');

  it('a server that never asked hears every tab event but no catalog; the all view still lists every tab', async () => {
    await focused.json('open_tab', { url: `${site.url('127.0.0.1')}/notes.html?label=one` });
    await focused.json('open_tab', { url: `${site.url('127.0.0.1')}/notes.html?label=two` });
    await waitFor(
      async () => {
        const names = await hubNames();
        return (
          names.includes(`website_tool_${domain}_tab1_whoami`) && names.includes(`website_tool_${domain}_tab2_whoami`)
        );
      },
      15_000,
      "both tabs' tools in the all view",
    );
    assert.ok(
      heard.some((message) => message.type === 'toolsChanged'),
      `the observer hears tab events: ${heard.map((message) => message.type).join(', ')}`,
    );
    assert.deepEqual(catalogHeard(), [], 'and no catalog, which it never asked for');
  });

  it('once it watches, a new tab sends that tab’s tools alone, not the whole catalog', async () => {
    observer.send(JSON.stringify({ type: 'listHubTools', requestId: 'watch-1', watch: true }));
    const list = await waitFor(
      () => heard.find((message) => message.type === 'response' && message.requestId === 'watch-1'),
      5_000,
      'the list',
    );
    const listed = (list as { result?: { tools?: Array<{ name: string }> } }).result?.tools ?? [];
    assert.ok(listed.length >= 6, `the whole list once, on asking: ${listed.length} tools`);

    // In the background: the active tab's tools say so in their descriptions, so a focus change
    // would also (rightly) resend the tools of the tabs that gained and lost it.
    await focused.json('open_tab', { url: `${site.url('127.0.0.1')}/notes.html?label=three`, focus: false });
    await waitFor(
      async () => (await hubNames()).includes(`website_tool_${domain}_tab3_whoami`),
      15_000,
      'tab 3 in the all view',
    );
    const changes = await waitFor(
      () => {
        const got = catalogHeard();
        return got.some((change) => change.changed?.some((tool) => tool.name.endsWith('_tab3_whoami')))
          ? got
          : undefined;
      },
      5_000,
      'the change with tab 3',
    );
    const sentAgain = changes.flatMap((change) => change.changed ?? []).map((tool) => tool.name);
    assert.deepEqual(
      sentAgain.filter((name) => !name.includes('_tab3_')),
      [],
      `only tab 3's tools were sent: ${sentAgain.join(', ')}`,
    );
    assert.deepEqual(
      changes.flatMap((change) => change.removed ?? []),
      [],
    );
  });
});
