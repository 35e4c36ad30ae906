import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { callDomTool, type DomHarness, startDomHarness } from '../../../test-support/dom-in-chromium';

type Answer = { done?: string; failed?: string; messages?: string[]; changes?: string; renamed?: string };

/**
 * Issue 37, every frame: a same-origin frame is read and acted in inline, by the page's own script,
 * so its elements belong to another window than the script's. What an action reports of such a frame
 * (its status messages, the control renamed as it was clicked, a field a component draws) must not
 * depend on the top window's constructors or listeners.
 */
describe('actions in a same-origin frame', () => {
  let harness: DomHarness;
  before(async () => {
    harness = await startDomHarness();
  });
  after(() => harness?.close());

  /** A page with one same-origin frame (srcdoc) holding `body`; resolves once the frame's script ran. */
  const withFrame = async (body: string): Promise<Page> => {
    const page = await harness.page();
    await page.setContent(
      `<main><h1>Checkout</h1><iframe title="Payment" style="width: 600px; height: 300px" srcdoc="${body.replaceAll('"', '&quot;')}"></iframe></main>`,
    );
    await page.waitForFunction(() => document.querySelector('iframe')?.contentDocument?.body?.dataset.ready === 'yes');
    await harness.load(page);
    return page;
  };
  const act = async (page: Page, name: string, args: Record<string, unknown> = {}) => {
    const { text } = await callDomTool(page, name, args);
    return JSON.parse(text) as Answer;
  };

  it("a frame's status message is the action's message, and an untouched one beside it is not", async () => {
    const page = await withFrame(`<button type="button" id="pay">Pay</button>
      <div><p role="status">Draft saved at 09:00</p><p role="status" id="result"></p></div>
      <script>
        document.getElementById('pay').addEventListener('click', () => {
          document.getElementById('result').textContent = 'Payment accepted';
        });
        document.body.dataset.ready = 'yes';
      </script>`);
    const paid = await act(page, 'click_pay');
    assert.equal(paid.messages?.length, 1, JSON.stringify(paid));
    assert.match(String(paid.messages?.[0]), /Payment accepted/);
  });

  it('a control the frame renames as it is clicked is reported under both names', async () => {
    const page = await withFrame(`<button type="button" id="cancel">Cancel</button><p id="out"></p>
      <script>
        const button = document.getElementById('cancel');
        button.addEventListener('mousedown', () => { button.textContent = 'Delete account'; });
        button.addEventListener('click', () => {
          document.getElementById('out').textContent = 'Account deleted';
          button.textContent = 'Cancel';
        });
        document.body.dataset.ready = 'yes';
      </script>`);
    const clicked = await act(page, 'click_cancel');
    assert.match(String(clicked.renamed), /button "Cancel" became button "Delete account"/, JSON.stringify(clicked));
  });

  it("a field faded out inside a frame's component, drawn by the component, is a field a person fills", async () => {
    const page = await withFrame(`<text-field></text-field>
      <script>
        customElements.define('text-field', class extends HTMLElement {
          constructor() {
            super();
            // Material's empty field: the input shows once focused, the component draws its outline.
            this.attachShadow({ mode: 'open' }).innerHTML =
              '<div style="position: relative; width: 240px; height: 40px">' +
              '<div style="position: absolute; inset: 0; border: 1px solid #555; border-radius: 4px"></div>' +
              '<input aria-label="Email" style="position: absolute; inset: 0; opacity: 0; width: 100%; height: 100%">' +
              '</div>';
          }
        });
        document.body.dataset.ready = 'yes';
      </script>`);
    const filled = await act(page, 'fill_email', { value: 'ada@example.com' });
    assert.equal(filled.failed, undefined, JSON.stringify(filled));
    const value = await page.evaluate(
      () =>
        document
          .querySelector('iframe')
          ?.contentDocument?.querySelector('text-field')
          ?.shadowRoot?.querySelector('input')?.value,
    );
    assert.equal(value, 'ada@example.com');
  });
});
