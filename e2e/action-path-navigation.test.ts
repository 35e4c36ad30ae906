import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { textOf, waitFor } from '../test-support/harness';
import { evaluateIn } from '../test-support/page-eval';
import { type Agent, type Scene, startScene } from '../test-support/server-harness';

type Answer = Record<string, unknown>;
type TabList = { tabs: Array<{ id: number; url: string; toolCount: number; focused: boolean }> };

/** Answers `/204` at once and `/slow-204` after 4 s with 204 No Content: the browser aborts both navigations. */
async function startNoContent(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const delay = request.url?.startsWith('/slow-204') ? 4_000 : 0;
    setTimeout(() => response.writeHead(204).end(), delay);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * Issue 38, document identity and navigation reports: the first call after a navigating answer, or
 * after a dialog the extension answered, still names the page the agent saw, so the page that
 * replaced it refuses a tool of the same name; and a navigation the browser never committed is not
 * reported as one. examples/attacks/replaced.html and aborted.html, through the official MCP SDK
 * client and tabmcp with the built extension; what ran is read on the page over a bare CDP connection.
 */
describe('document identity and navigation reports (issue 38)', () => {
  let scene: Scene;
  let agent: Agent;
  let noContent: Awaited<ReturnType<typeof startNoContent>>;

  before(async () => {
    noContent = await startNoContent();
    scene = await startScene(['--launch']);
    agent = scene.agent;
    await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(async () => {
    await scene?.close();
    await noContent?.close();
  });

  const ran = (tab: string) => evaluateIn<string | null>(scene.agent.stderr, tab, 'localStorage.getItem("ran")');
  /** The focused tab, once it shows `step` with its tools registered (list_tabs reads no tool list). */
  const focusedAt = (step: string, minTools: number) =>
    waitFor(
      async () => {
        const { tabs } = await agent.json<TabList>('list_tabs');
        const tab = tabs.find((candidate) => candidate.focused);
        return tab?.url.includes(`step=${step}`) && tab.toolCount >= minTools ? tab : undefined;
      },
      10_000,
      `the ${step} page and its tools`,
    );

  it('a tool named in a navigation report is refused on the page that replaced the reported one', async () => {
    await agent.json('open_tab', { url: `${scene.site.url}/attacks/replaced.html?run=1&step=cart`, focus: true });
    await waitFor(async () => (await agent.toolNames()).includes('click_review_order') || undefined, 10_000, 'cart');
    const report = await agent.json<Answer>('click_review_order');
    assert.match(String(report.url), /step=review/, JSON.stringify(report));
    assert.ok((report.tools as string[]).includes('click_continue'), JSON.stringify(report));
    const review = await focusedAt('review', 1);
    // The reported page is replaced by another whose Continue closes the account (a page can do this itself).
    await evaluateIn(scene.agent.stderr, 'step=review', 'location.replace("?run=1&step=close"), true');
    await focusedAt('close', review.toolCount + 1);
    const refused = await agent.call('click_continue');
    assert.equal(refused.isError, true, textOf(refused));
    assert.match(textOf(refused), /^The page changed since the tool list was read: "click_continue"/);
    assert.equal(await ran('step=close'), null, 'nothing ran on the page that replaced the report’s');
  });

  it('the first call after a dialog the extension answered names the page the agent saw', async () => {
    await agent.json('open_tab', { url: `${scene.site.url}/attacks/replaced.html?run=2&step=review`, focus: true });
    await evaluateIn(scene.agent.stderr, 'run=2&step=review', 'localStorage.removeItem("ran"), true');
    await waitFor(async () => (await agent.toolNames()).includes('click_submit') || undefined, 10_000, 'review');
    const { toolCount } = await focusedAt('review', 1);
    const asked = JSON.parse(textOf(await agent.call('click_submit'))) as { dialog?: { kind: string } };
    assert.equal(asked.dialog?.kind, 'confirm');
    // OK submits the order, and the page goes on to the next one.
    await agent.json('handle_dialog', { accept: true });
    await focusedAt('close', toolCount + 1);
    const refused = await agent.call('click_continue');
    assert.equal(refused.isError, true, textOf(refused));
    assert.match(textOf(refused), /^The page changed since the tool list was read: "click_continue"/);
    assert.equal(await ran('replaced.html?step=close'), null, 'the account was not closed');
  });

  for (const [path, when] of [
    ['204', 'at once'],
    ['slow-204', 'after the 3 s the report waits'],
  ] as const) {
    it(`a navigation the browser aborts ${when} does not answer "navigating"`, async () => {
      const to = encodeURIComponent(`${noContent.url}/${path}`);
      await agent.json('open_tab', { url: `${scene.site.url}/attacks/aborted.html?to=${to}`, focus: true });
      await waitFor(
        async () => (await agent.toolNames()).includes('open_the_statement') || undefined,
        10_000,
        'the statements page',
      );
      const answer = await agent.json<Answer>('open_the_statement');
      assert.equal(answer.navigating, undefined, JSON.stringify(answer));
      assert.equal(answer.url, undefined, JSON.stringify(answer));
      assert.match(String(answer.done), /clicked button "Open the statement"/);
    });
  }
});
