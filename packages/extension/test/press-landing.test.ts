import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { type DomHarness, startDomHarness } from '../../../test-support/dom-in-chromium';

/**
 * Where the browser's own press lands (press-landing.ts), with the browser's own input (Playwright's
 * mouse is CDP's `Input.dispatchMouseEvent`, as the extension's is): a press past the window's edge
 * reaches only the page's root, and must be told apart from one on another control.
 */
const PAGE = `<!doctype html><body style="margin:0">
  <div id="other" style="height:100px">Other text</div>
  <button id="target" style="height:40px"><span>Save</span></button>
  <label for="box" id="caption">Remember me</label><input type="checkbox" id="box">
  <div id="region" style="height:60px;overflow:auto"><p id="line" style="height:200px;margin:0">Log</p></div>
</body>`;

describe('where a press landed', () => {
  let harness: DomHarness;
  let page: Page;
  before(async () => {
    harness = await startDomHarness();
    page = await harness.page();
    await page.setContent(PAGE);
    const bundle = await build({
      entryPoints: [join(import.meta.dirname, '..', 'src', 'content', 'dom-tools', 'press-landing.ts')],
      bundle: true,
      format: 'iife',
      globalName: '__pressLanding',
      write: false,
      logLevel: 'silent',
    });
    await page.addScriptTag({ content: bundle.outputFiles[0]?.text ?? '' });
  });
  after(() => harness?.close());

  type Watch = { landing(): { on: string; what?: Element }; stop(): void };
  /** Starts a watch on `#id` (kept on the page as `__watch`): of a press, or of a wheel turn. */
  const watch = (id: string, of: 'press' | 'wheel' = 'press') =>
    page.evaluate(
      ([id, of]) => {
        const global = globalThis as unknown as {
          __pressLanding: {
            watchPress(target: Element): Watch;
            watchWheel(region: Element, wholePage: boolean): Watch;
          };
          __watch?: Watch;
        };
        const element = document.getElementById(id) as Element;
        global.__watch =
          of === 'wheel' ? global.__pressLanding.watchWheel(element, false) : global.__pressLanding.watchPress(element);
      },
      [id, of] as const,
    );
  /** Stops the watch and says what it heard: the landing, and the id (else the tag) of what it names. */
  const landed = () =>
    page.evaluate(() => {
      const { __watch } = globalThis as unknown as { __watch: Watch };
      __watch.stop();
      const landing = __watch.landing();
      return { on: landing.on, what: landing.what?.id || landing.what?.localName };
    });
  /** Presses at (x, y) with the browser's input while a watch on `#id` listens; what it says then. */
  const landingOf = async (id: string, x: number, y: number) => {
    await watch(id);
    await page.mouse.click(x, y);
    return landed();
  };
  const centre = (id: string) =>
    page.evaluate((id) => {
      const box = (document.getElementById(id) as Element).getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    }, id);

  it('on the control, or inside it', async () => {
    const { x, y } = await centre('target');
    assert.deepEqual(await landingOf('target', x, y), { on: 'target', what: undefined });
  });

  it('on a label of the control (a click there activates it)', async () => {
    const { x, y } = await centre('caption');
    assert.deepEqual(await landingOf('box', x, y), { on: 'target', what: undefined });
  });

  it('on another element: named', async () => {
    const { x, y } = await centre('other');
    assert.deepEqual(await landingOf('target', x, y), { on: 'elsewhere', what: 'other' });
  });

  it('past the window’s bottom edge, as after the window got shorter: on no control', async () => {
    const height = await page.evaluate(() => innerHeight);
    assert.deepEqual(await landingOf('target', 50, height + 20), { on: 'outside the window', what: undefined });
  });

  it('pressed on the control and released past the window’s edge: no click, said so', async () => {
    const { x, y } = await centre('target');
    const height = await page.evaluate(() => innerHeight);
    await watch('target');
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x, height + 20);
    await page.mouse.up();
    assert.deepEqual(await landed(), { on: 'released past the edge', what: undefined });
  });

  it('a wheel turn over the region, over its content, or elsewhere (named)', async () => {
    const wheelAt = async (id: string) => {
      const { x, y } = await centre(id);
      await watch('region', 'wheel');
      await page.mouse.move(x, y);
      await page.mouse.wheel(0, 40);
      // The wheel event is dispatched before the browser answers the next input command's round trip.
      await page.evaluate(() => new Promise(requestAnimationFrame));
      return landed();
    };
    // The region's middle is its content (#line): inside it.
    assert.deepEqual(await wheelAt('region'), { on: 'target', what: undefined });
    assert.deepEqual(await wheelAt('other'), { on: 'elsewhere', what: 'other' });
  });

  it('a wheel turn past the window’s edge reaches no element: unheard', async () => {
    const height = await page.evaluate(() => innerHeight);
    await watch('region', 'wheel');
    await page.mouse.move(50, height + 20);
    await page.mouse.wheel(0, 40);
    await page.evaluate(() => new Promise(requestAnimationFrame));
    assert.deepEqual(await landed(), { on: 'unheard', what: undefined });
  });

  it('a press it did not hear (none made) is unheard, not a miss', async () => {
    await page
      .evaluate(() => {
        const global = globalThis as unknown as {
          __pressLanding: { watchPress(target: Element): { landing(): { on: string }; stop(): void } };
        };
        const watch = global.__pressLanding.watchPress(document.getElementById('target') as Element);
        (document.getElementById('other') as HTMLElement).dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
        watch.stop();
        return watch.landing().on;
      })
      .then((on) => assert.equal(on, 'unheard', 'an event the page dispatches itself is no press'));
  });
});
