import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame } from 'playwright-core';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { freePort, textOf, waitFor } from '../test-support/harness';
import { browserOf, pageWithUrl, type Scene, startScene } from '../test-support/server-harness';

/**
 * Issue 37, every frame: a checkout whose card field and Pay button live in a frame of another
 * origin is read with that frame in place (its origin named), and the agent fills and clicks in it
 * with the browser's own input; a frame of a site the user never allowed is not read and says so.
 * The top page is 127.0.0.1:A, the payment frame localhost:B (another site, its own process) or
 * 127.0.0.1:B (the same site on another port: another origin all the same), the advertisement
 * 127.0.0.2:C, a site nobody allowed (only loopback names are allowed by default). What the frame
 * holds is read from the frame itself, over CDP.
 */
describe('frames of another origin', () => {
  let scene: Scene;
  let provider: ExampleServer;
  let notAllowed: ExampleServer;
  let browser: Browser;

  const checkout = (payOrigin: string, cardQuery = '') =>
    `${scene.site.url}/widgets/frames/checkout.html?pay=${encodeURIComponent(`${payOrigin}/widgets/frames/card.html${cardQuery}`)}&ad=${encodeURIComponent(`${notAllowed.url}/widgets/frames/ad.html`)}`;
  const open = (url: string) => scene.agent.json('open_tab', { url });
  /** The read once the payment frame's own page is in it (frames load after their page). */
  const readWithFrame = (origin: string) =>
    waitFor(
      async () => {
        const page = textOf(await scene.agent.call('get_page_content'));
        return page.includes(`[end of frame ${origin}]`) && page.includes('Card number') ? page : undefined;
      },
      15_000,
      `the frame of ${origin} in the read`,
    );
  /**
   * The first frame of the browser that `matches`, once Playwright has attached to it: a frame of
   * another site is a target of its own, which Playwright attaches a moment after tabmcp acted in it.
   */
  const frameWhere = (matches: (frameUrl: string, tabUrl: string) => boolean, what: string): Promise<Frame> =>
    waitFor(
      () =>
        browser
          .contexts()
          .flatMap((context) => context.pages())
          .flatMap((tab) => tab.frames().filter((frame) => matches(frame.url(), tab.url())))[0],
      10_000,
      what,
    );
  const paymentFrame = async (origin: string): Promise<Frame> => {
    const page = await pageWithUrl(browser, '/widgets/frames/checkout.html');
    return waitFor(() => page.frames().find((frame) => frame.url().startsWith(origin)), 10_000, 'the payment frame');
  };

  before(async () => {
    scene = await startScene(['--launch']);
    provider = await startExampleServer(0, '127.0.0.1');
    notAllowed = await startExampleServer(0, '127.0.0.2');
    await waitFor(async () => (await scene.agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
    browser = await browserOf(scene.agent);
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await scene?.close();
    await provider?.close();
    await notAllowed?.close();
  });

  it('reads the card frame in place, fills its card field and clicks Pay in it, as a person does', async () => {
    const origin = `http://localhost:${new URL(provider.url).port}`;
    await open(checkout(origin));
    const page = await readWithFrame(origin);
    const frameHandle = new RegExp(`\\[frame ${origin} ([a-z]\\d+)\\]`).exec(page)?.[1];
    assert.ok(frameHandle, `the frame is named by its origin and has a handle:\n${page}`);
    // The field's label is the text right before it, so its token leaves the name out.
    const card = new RegExp(`Card number \\[textbox = "" (${frameHandle}\\.[a-z]\\d+)\\]`).exec(page)?.[1];
    const pay = new RegExp(`\\[button "Pay €20.00" (${frameHandle}\\.[a-z]\\d+)\\]`).exec(page)?.[1];
    assert.ok(card && pay, `the frame's controls have handles through the frame:\n${page}`);

    const filled = await scene.agent.json<{ done?: string; failed?: string }>('act', {
      handle: card,
      action: 'fill',
      value: '4242 4242 4242 4242',
    });
    assert.equal(filled.failed, undefined, JSON.stringify(filled));
    const frame = await paymentFrame(origin);
    assert.equal(
      await frame.evaluate(() => (document.getElementById('card') as HTMLInputElement).value),
      '4242 4242 4242 4242',
    );

    const paid = await scene.agent.json<{ done?: string; changes?: string; reasons?: string[] }>('act', {
      handle: pay,
      action: 'click',
    });
    assert.match(paid.changes ?? '', /Paid with card ending 4242/, JSON.stringify(paid));
    // The confirmation gate read the frame's button as the frame's script sees it (allowed here by --confirm).
    assert.match(JSON.stringify(paid.reasons), /payment/, JSON.stringify(paid));
    assert.deepEqual(
      await frame.evaluate(() => (window as unknown as { payment: unknown }).payment),
      { paid: 1, trusted: true, card: '4242 4242 4242 4242' },
      "one click, the browser's own",
    );
  });

  it('a frame of a site not allowed is not read, says so with its origin, and its controls get no handle', async () => {
    const page = textOf(await scene.agent.call('get_page_content'));
    const adOrigin = `http://127.0.0.2:${new URL(notAllowed.url).port}`;
    assert.ok(page.includes(`[frame ${adOrigin} (site 127.0.0.2 not allowed yet: not read;`), page);
    assert.doesNotMatch(page, /Secret offer code|Claim prize/);
  });

  it('a click in the frame is refused where the page around it covers the frame, and nothing is pressed', async () => {
    const origin = `http://localhost:${new URL(provider.url).port}`;
    const page = await readWithFrame(origin);
    const pay = /\[button "Pay €20.00" ([a-z]\d+\.[a-z]\d+)\]/.exec(page)?.[1];
    assert.ok(pay, page);
    const checkoutPage = await pageWithUrl(browser, '/widgets/frames/checkout.html');
    // A transparent layer the page slides over its payment frame (a clickjacking cover).
    await checkoutPage.evaluate(() => {
      const cover = document.createElement('div');
      cover.id = 'cover';
      cover.setAttribute('aria-label', 'Promotion');
      cover.style.cssText = 'position:fixed;inset:0;background:transparent;z-index:10';
      document.body.append(cover);
    });
    const refused = await scene.agent.call('act', { handle: pay, action: 'click' });
    assert.equal(refused.isError, true, textOf(refused));
    assert.match(textOf(refused), /covered there by/);
    const frame = await paymentFrame(origin);
    assert.equal(await frame.evaluate(() => (window as unknown as { payment: { paid: number } }).payment.paid), 1);
    await checkoutPage.evaluate(() => document.getElementById('cover')?.remove());
  });

  it("the frame's own tools are in the page's list, described as the frame's, and run in the frame", async () => {
    const origin = `http://localhost:${new URL(provider.url).port}`;
    const frameTools = await waitFor(
      async () => {
        const { tools } = await scene.agent.client.listTools();
        const mine = tools.filter((tool) => tool.description?.includes(`In the frame of ${origin}:`));
        return mine.length >= 2 ? mine : undefined;
      },
      10_000,
      "the frame's tools in the list",
    );
    const names = frameTools.map((tool) => tool.name);
    const fill = names.find((name) => /^fill_card_number/.test(name));
    const click = names.find((name) => /^click_pay/.test(name));
    assert.ok(fill && click, names.join(', '));
    await scene.agent.json(fill, { value: '5555 5555 5555 4444' });
    const paid = await scene.agent.json<{ changes?: string }>(click, {});
    assert.match(paid.changes ?? '', /ending 4444/, JSON.stringify(paid));
    const frame = await paymentFrame(origin);
    assert.deepEqual(await frame.evaluate(() => (window as unknown as { payment: unknown }).payment), {
      paid: 2,
      trusted: true,
      card: '5555 5555 5555 4444',
    });
  });

  it("a click in the frame answers with the frame's tools that came and went, by the names the page lists them", async () => {
    const origin = `http://localhost:${new URL(provider.url).port}`;
    const listed = await waitFor(
      async () => {
        const { tools } = await scene.agent.client.listTools();
        const names = tools.map((tool) => tool.name);
        return names.includes('add_cardholder_name') ? names : undefined;
      },
      10_000,
      "the frame's button in the list",
    );
    // The page's own holder field holds the name: the frame's comes second.
    assert.ok(listed.includes('fill_name_on_card'), listed.join(', '));
    const shown = await scene.agent.json<{ done?: string; tools?: { added?: string[]; removed?: string[] } }>(
      'add_cardholder_name',
      {},
    );
    assert.deepEqual(
      shown.tools,
      { added: ['fill_name_on_card_2'], removed: ['add_cardholder_name'] },
      JSON.stringify(shown),
    );
    const { tools } = await scene.agent.client.listTools();
    const added = tools.find((tool) => tool.name === 'fill_name_on_card_2');
    assert.match(String(added?.description), new RegExp(`In the frame of ${origin}: Type into "Name on card"`));
  });

  it("a click that brings in the payment frame answers with the frame's tools, once the frame runs", async () => {
    const origin = `http://localhost:${new URL(provider.url).port}`;
    await open(`${checkout(origin)}&later`);
    const chosen = await scene.agent.json<{ tools?: { added?: string[]; removed?: string[] } }>('act', {
      handle: await waitFor(
        async () => /\[button "Pay by card" ([a-z]\d+)\]/.exec(textOf(await scene.agent.call('get_page_content')))?.[1],
        10_000,
        'the Pay by card button',
      ),
      action: 'click',
    });
    assert.deepEqual(
      chosen.tools,
      { added: ['fill_card_number', 'add_cardholder_name', 'click_pay_20_00'], removed: ['click_pay_by_card'] },
      JSON.stringify(chosen),
    );
  });

  it('a frame of another origin inside a shadow root (in no `window.frames`) is read in place and clicked', async () => {
    const origin = `http://localhost:${new URL(provider.url).port}`;
    await open(`${checkout(origin)}&shadow`);
    const page = await readWithFrame(origin);
    const pay = /\[button "Pay €20.00" ([a-z]\d+\.[a-z]\d+)\]/.exec(page)?.[1];
    assert.ok(pay, page);
    const paid = await scene.agent.json<{ changes?: string }>('act', { handle: pay, action: 'click' });
    assert.match(paid.changes ?? '', /Paid with card ending/, JSON.stringify(paid));
    const frame = await frameWhere(
      (frameUrl, tabUrl) => tabUrl.includes('&shadow') && frameUrl.startsWith(`${origin}/widgets/frames/card.html`),
      'the payment frame',
    );
    assert.deepEqual(await frame.evaluate(() => (window as unknown as { payment: unknown }).payment), {
      paid: 1,
      trusted: true,
      card: '',
    });
  });

  it('the same site on another port is another origin: read through its own script, named precisely', async () => {
    const origin = `http://127.0.0.1:${new URL(provider.url).port}`;
    await open(checkout(origin));
    const page = await readWithFrame(origin);
    assert.match(page, new RegExp(`\\[frame ${origin} [a-z]\\d+\\]`));
    assert.doesNotMatch(page, /another site: not read/);
  });

  it('a frame that failed to load is named by its address and said not to have loaded', async () => {
    const origin = `http://localhost:${await freePort()}`; // nothing listens there
    await open(checkout(origin));
    const page = await waitFor(
      async () => {
        const read = textOf(await scene.agent.call('get_page_content'));
        return read.includes(`[frame ${origin} (`) ? read : undefined;
      },
      15_000,
      'the failed frame in the read',
    );
    assert.ok(page.includes(`[frame ${origin} (not read: it did not load`), page);
  });

  it('a frame inside a frame of another origin is read in place and clicked through both', async () => {
    const port = new URL(provider.url).port;
    const payOrigin = `http://localhost:${port}`;
    const bankOrigin = `http://127.0.0.1:${port}`;
    await open(checkout(payOrigin, `?secure=${encodeURIComponent(`${bankOrigin}/widgets/frames/secure.html`)}`));
    const page = await waitFor(
      async () => {
        const read = textOf(await scene.agent.call('get_page_content'));
        return read.includes(`[end of frame ${bankOrigin}]`) ? read : undefined;
      },
      15_000,
      'the bank frame inside the payment frame',
    );
    const confirm = /\[button "Confirm with my bank" ([a-z]\d+\.[a-z]\d+\.[a-z]\d+)\]/.exec(page)?.[1];
    assert.ok(confirm, `a handle through both frames:\n${page}`);
    await scene.agent.json('act', { handle: confirm, action: 'click' });
    const bank = await frameWhere(
      (frameUrl) => frameUrl.startsWith(`${bankOrigin}/widgets/frames/secure.html`),
      'the bank frame',
    );
    assert.deepEqual(await bank.evaluate(() => (window as unknown as { bank: unknown }).bank), {
      confirmed: 1,
      trusted: true,
    });
  });

  it('an upload into a frame of another site, or of the same host on another port, gives the file to its own input', async () => {
    const files = mkdtempSync(join(tmpdir(), 'tabmcp-frame-upload-'));
    const photo = join(files, 'passport.png');
    writeFileSync(photo, 'not really a photo');
    const port = new URL(provider.url).port;
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
      const address = `${origin}/widgets/frames/upload.html?for=${origin.length}`;
      await open(`${scene.site.url}/widgets/frames/checkout.html?id=${encodeURIComponent(address)}`);
      const page = await waitFor(
        async () => {
          const read = textOf(await scene.agent.call('get_page_content'));
          return read.includes(`[end of frame ${origin}]`) ? read : undefined;
        },
        15_000,
        `the identity frame of ${origin}`,
      );
      const field = /Photo of your ID \[[^\]]*? ([a-z]\d+\.[a-z]\d+)\]/.exec(page)?.[1];
      assert.ok(field, `the file field has a handle through the frame:\n${page}`);
      const uploaded = await scene.agent.json<{ done?: string; messages?: string[] }>('act', {
        handle: field,
        action: 'upload',
        value: photo,
      });
      // The frame's own status line, as its script read it after the change.
      assert.match(String(uploaded.messages), /Received passport\.png \(18 bytes\)/, JSON.stringify(uploaded));
      const frame = await frameWhere((frameUrl) => frameUrl === address, `the frame of ${origin}`);
      assert.equal(
        await frame.evaluate(() => (document.getElementById('document') as HTMLInputElement).files?.[0]?.name),
        'passport.png',
      );
    }
  });
});

/** With page events (`--input synthetic`) the frame is hit-tested through its parents all the same. */
describe('frames of another origin, with page events', () => {
  let scene: Scene;
  let provider: ExampleServer;
  let browser: Browser;

  before(async () => {
    scene = await startScene(['--launch', '--input', 'synthetic']);
    provider = await startExampleServer(0, '127.0.0.1');
    await waitFor(async () => (await scene.agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
    browser = await browserOf(scene.agent);
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await scene?.close();
    await provider?.close();
  });

  it('a covered frame refuses the click; uncovered, the click is made once, as a page event', async () => {
    const origin = `http://localhost:${new URL(provider.url).port}`;
    const pay = `${origin}/widgets/frames/card.html`;
    await scene.agent.json('open_tab', {
      url: `${scene.site.url}/widgets/frames/checkout.html?pay=${encodeURIComponent(pay)}`,
    });
    const page = await waitFor(
      async () => {
        const read = textOf(await scene.agent.call('get_page_content'));
        return /\[button "Pay €20.00" [a-z]\d+\.[a-z]\d+\]/.test(read) ? read : undefined;
      },
      15_000,
      'the payment frame in the read',
    );
    const handle = /\[button "Pay €20.00" ([a-z]\d+\.[a-z]\d+)\]/.exec(page)?.[1];
    const checkoutPage = await pageWithUrl(browser, '/widgets/frames/checkout.html');
    await checkoutPage.evaluate(() => {
      const cover = document.createElement('div');
      cover.id = 'cover';
      cover.style.cssText = 'position:fixed;inset:0;background:transparent;z-index:10';
      document.body.append(cover);
    });
    const refused = await scene.agent.call('act', { handle, action: 'click' });
    assert.match(textOf(refused), /covered there by/);
    const frame = await waitFor(
      () => checkoutPage.frames().find((candidate) => candidate.url().startsWith(origin)),
      10_000,
      'the payment frame',
    );
    assert.equal(await frame.evaluate(() => (window as unknown as { payment: { paid: number } }).payment.paid), 0);
    await checkoutPage.evaluate(() => document.getElementById('cover')?.remove());
    await scene.agent.json('act', { handle, action: 'click' });
    assert.deepEqual(await frame.evaluate(() => (window as unknown as { payment: unknown }).payment), {
      paid: 1,
      trusted: false,
      card: '',
    });
  });
});
