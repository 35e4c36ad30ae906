import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { textOf, waitFor } from '../test-support/harness';
import { type Agent, type Machine, newMachine, startAgent } from '../test-support/server-harness';

type Tabs = { tabs: Array<{ id: number; focused: boolean }>; focusedTabId: number | null };

describe('several agents share one browser (docs/requirements.md#founding-decisions, decision 4)', () => {
  let site: ExampleServer;
  let machine: Machine;
  const agents: Agent[] = [];
  let owner: Agent;
  let second: Agent;
  let third: Agent;

  before(async () => {
    site = await startExampleServer();
    machine = await newMachine();
    owner = await startAgent(machine);
    await waitFor(() => /"role":"owner"/.test(owner.stderr()), 5_000, 'the first tabmcp to own the port');
    second = await startAgent(machine);
    third = await startAgent(machine);
    agents.push(owner, second, third);
  });

  after(async () => {
    for (const agent of agents) await agent.close().catch(() => {});
    await site?.close();
    machine?.close();
  });

  it('the second and third tabmcp join the first instead of failing on the port', async () => {
    await waitFor(() => /"role":"peer"/.test(second.stderr()), 5_000, 'the second tabmcp to join as a peer');
    await waitFor(() => /"role":"peer"/.test(third.stderr()), 5_000, 'the third tabmcp to join as a peer');
    await waitFor(() => (owner.stderr().match(/"peer.joined"/g) ?? []).length >= 2, 5_000, 'two peers at the owner');
    // A peer launches the browser; it pairs with the shared port, so every agent can use it.
    const launched = await second.call('connect_browser', { launch: true });
    if (launched.isError) console.log(owner.stderr(), second.stderr(), third.stderr());
    assert.notEqual(launched.isError, true, textOf(launched));
    for (const agent of [owner, third]) {
      const connected = await agent.call('connect_browser');
      assert.notEqual(connected.isError, true, textOf(connected));
    }
  });

  it('each agent has its own focus and tools', async () => {
    await owner.json('open_tab', { url: `${site.url}/shop/` });
    await second.json('open_tab', { url: `${site.url}/skyhop/` });
    await third.json('open_tab', { url: `${site.url}/codehub/` });
    const [ownerTools, secondTools, thirdTools] = await Promise.all(agents.map((agent) => agent.toolNames()));
    assert.ok(ownerTools?.includes('add_to_cart') && !ownerTools.includes('search_flights'), `${ownerTools}`);
    assert.ok(secondTools?.includes('search_flights') && !secondTools.includes('add_to_cart'), `${secondTools}`);
    assert.ok(thirdTools?.includes('star_repo') && !thirdTools.includes('add_to_cart'), `${thirdTools}`);
    const focus = await Promise.all(agents.map(async (agent) => (await agent.json<Tabs>('list_tabs')).focusedTabId));
    assert.equal(new Set(focus).size, 3, `three different focused tabs: ${focus}`);
    // Every agent sees every tab; focus stays personal.
    const tabs = await second.json<Tabs>('list_tabs');
    assert.ok(focus.every((id) => tabs.tabs.some((tab) => tab.id === id)));
  });

  it('agents call tools at the same time and each gets its own answers', async () => {
    const rounds = 15;
    const results = await Promise.all([
      ...Array.from({ length: rounds }, () => owner.call('add_to_cart', { productId: 'p1' })),
      ...Array.from({ length: rounds }, () =>
        second.call('search_flights', { from: 'SFO', to: 'NYC', departDate: '2024-01-19' }),
      ),
      ...Array.from({ length: rounds }, () => third.call('view_issues', { state: 'all' })),
    ]);
    for (const result of results) assert.notEqual(result.isError, true, textOf(result));
    const cart = await owner.json<{ items: Array<{ quantity: number }> }>('get_cart');
    assert.equal(cart.items[0]?.quantity, rounds);
    assert.ok(results.slice(rounds, 2 * rounds).every((result) => /"cheapest":\s*450/.test(textOf(result))));
    assert.ok(results.slice(2 * rounds).every((result) => /Support list_changed/.test(textOf(result))));
  });

  it('when the first tabmcp exits, a peer takes the port over and the others follow', async () => {
    await owner.close();
    agents.splice(agents.indexOf(owner), 1);
    // The extension dials the port again; the new owner's sessions and its peers reconnect by themselves.
    for (const agent of [second, third]) {
      await waitFor(
        async () => (await agent.call('list_tabs')).isError !== true,
        20_000,
        'the agent to be connected again',
      );
    }
    const roles = [second, third].map((agent) => (/"role":"owner"/.test(agent.stderr()) ? 'owner' : 'peer'));
    assert.deepEqual(roles.sort(), ['owner', 'peer']);
    await waitFor(async () => (await second.toolNames()).includes('search_flights'), 10_000, 'focus kept');
    const found = await second.call('search_flights', { from: 'SFO', to: 'NYC', departDate: '2024-01-19' });
    assert.match(textOf(found), /"cheapest":\s*450/);
    await waitFor(async () => (await third.toolNames()).includes('star_repo'), 10_000, 'focus kept');
    assert.match(textOf(await third.call('star_repo')), /"starred":\s*true/);
  });
});
