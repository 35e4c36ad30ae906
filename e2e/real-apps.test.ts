import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApps } from '../examples/apps/build';
import { ScriptedAgent, TASKS, tabmcpScript } from '../test-support/real-app-agent';
import { type LaunchedScene, pageWithUrl, startLaunchedScene } from '../test-support/server-harness';

/**
 * Issue 10: the fixture apps on real frameworks (React, Vue) and plain pages publish no tools; a
 * scripted agent that picks tabmcp's derived tools by their descriptions and schemas finishes
 * every task. The result is read from the page over CDP, never from the tools' answers. The same
 * tasks run against Playwright MCP and chrome-devtools-mcp in bench/real-apps.ts.
 */
describe('real apps: every fixture task finished through DOM-derived tools', () => {
  let scene: LaunchedScene;

  before(async () => {
    await buildApps();
    scene = await startLaunchedScene();
  });

  after(() => scene?.close());

  for (const task of TASKS) {
    it(task.label, async () => {
      const agent = new ScriptedAgent(scene.agent);
      await tabmcpScript(agent, `${scene.site.url}${task.path}`, task);
      const page = await pageWithUrl(scene.browser, task.path);
      const state = (await page.evaluate(task.stateScript)) as string | undefined;
      assert.deepEqual(parsed(state), parsed(task.expected), agent.transcript.join('\n'));
      // Each added todo also cleared the box, as the app does for a person (zoneless Angular needs a
      // turn of the page between typing and Enter to see it).
      if (task.key.endsWith('-todo')) assert.equal(await page.inputValue('.new-todo'), '');
      // Terse answers are what keeps tabmcp several times cheaper than snapshot-based servers
      // (tool lists depend on what the shared browser showed before; bench/real-apps.ts counts them).
      assert.ok(agent.resultBytes < 3_000, `${agent.resultBytes} bytes of results:\n${agent.transcript.join('\n')}`);
    });
  }
});

function parsed(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return text;
  }
}
