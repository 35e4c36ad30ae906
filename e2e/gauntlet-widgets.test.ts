import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildGauntlet } from '../examples/gauntlet/build';
import { gauntletAgent } from '../test-support/gauntlet-agent';
import { waitFor } from '../test-support/harness';
import { evaluateIn } from '../test-support/page-eval';
import { type Agent, type Scene, startScene } from '../test-support/server-harness';

/**
 * Issue 23, trusted input: typing key by key into a type-ahead box (Tom Select), read from the
 * library's own state over CDP. Real hover, the timed double-click, file upload and drag and drop
 * are tasks of the catalog (e2e/gauntlet-tasks.test.ts), judged the same way; this file keeps what
 * is more than a task's outcome.
 */
describe('gauntlet: trusted input (--input auto)', () => {
  let scene: Scene;
  let agent: Agent;
  let script: ReturnType<typeof gauntletAgent>;
  const call = (name: string, args: Record<string, unknown> = {}) => script.call(name, args);
  const handleOf = (text: string) => script.handleOf(text);
  const why = () => script.why();

  before(async () => {
    await buildGauntlet();
    scene = await startScene(['--launch']);
    agent = scene.agent;
    script = gauntletAgent(agent);
    await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(() => scene?.close());

  const state = <T>(page: string, expression: string) => evaluateIn<T>(scene.agent.stderr, page, expression);
  const open = (page: string) => agent.json('open_tab', { url: `${scene.site.url}/gauntlet/${page}` });

  it('type-ahead (Tom Select): "pick Canada" types key by key, the list filters, the option is picked', async () => {
    await open('country.html');
    // Tom Select keeps the original <select> in the page, hidden for sight but not for reading: the
    // type-ahead box is the combobox named by the label.
    await call('act', { handle: await handleOf('combobox "Country"'), action: 'fill', value: 'Cana' });
    // Tom Select refreshes its list a moment after the last key (refreshThrottle): the agent reads
    // the filtered options, then picks one, as a person does.
    await call('act', { handle: await handleOf('option "Canada"'), action: 'click' });
    assert.equal(await state('country.html', 'window.countryPicked()'), 'CA', why());
    assert.equal(await state('country.html', 'window.countryKeys()'), 'Cana', why());
  });
});
