import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildComponentFixtures } from '../examples/components/build';
import { buildGauntlet } from '../examples/gauntlet/build';
import { buildWidgetFixtures } from '../examples/widgets/build';
import { buildReactWidgets } from '../examples/widgets-react/build';
import { waitFor } from '../test-support/harness';
import { type Scene, startScene } from '../test-support/server-harness';
import { widgetTasks } from '../test-support/widget-tasks/catalog';
import { runOnTabmcp } from '../test-support/widget-tasks/run-tabmcp';

/**
 * Issue 23, the widget gauntlet as data: every task of test-support/widget-tasks/catalog, run
 * through tabmcp (--input auto) by the scripted agent a model stands in for, and judged by the
 * library's own state in the page over CDP. bench/widgets.ts runs the same tasks beside the peers.
 */
describe('gauntlet: widget tasks, as a user asks them', () => {
  let scene: Scene;
  let files: string;
  const costs: string[] = [];

  before(async () => {
    await Promise.all([buildGauntlet(), buildComponentFixtures(), buildReactWidgets(), buildWidgetFixtures()]);
    files = mkdtempSync(join(tmpdir(), 'tabmcp-widget-files-'));
    scene = await startScene(['--launch']);
    await waitFor(async () => (await scene.agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(async () => {
    process.stderr.write(`gauntlet-tasks: ${costs.join('; ')}\n`);
    await scene?.close();
    rmSync(files, { recursive: true, force: true });
  });

  for (const task of widgetTasks)
    it(`${task.library}: "${task.ask}"`, async () => {
      const run = await runOnTabmcp(scene.agent, scene.site.url, task, files);
      costs.push(`${task.id}: ${run.calls} calls, ${run.bytesRead} B`);
      assert.ok(run.done, `not done; the page's state: ${JSON.stringify(run.state)}\n${run.transcript}`);
    });
});
