import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { ActionFacts } from '@tabmcp/protocol';
import type { Page } from 'playwright-core';
import { type DomHarness, startDomHarness } from '../../../test-support/dom-in-chromium';
import { choosePolicy, withSiteChoice } from '../src/background/confirm/confirm-policy';
import { captionKinds, consequenceOf } from '../src/background/confirm/consequence-rules';

const example = (path: string) => pathToFileURL(join(import.meta.dirname, '..', '..', '..', 'examples', path)).href;
const derived = (facts: ActionFacts) => consequenceOf({ kind: 'derived', facts });

/** Issue 41: which actions are consequential, from facts the browser reads, and whose policy decides. */
describe('confirmation rules', () => {
  it('captions of payment, deletion, sending, publishing and transfer, in several languages', () => {
    const cases: Array<[string, string[]]> = [
      ['Pay €20.00', ['payment']],
      ['Place order', ['payment']],
      ['Jetzt kaufen', ['payment']],
      ['Valider la commande', ['payment']],
      ['Delete address', ['deletion']],
      ['Supprimer le compte', ['deletion']],
      ['Löschen', ['deletion']],
      ['Send', ['sending']],
      ['Enviar mensaje', ['sending']],
      ['Publish post', ['publishing']],
      ['Transfer money', ['transfer']],
      ['Überweisen', ['transfer']],
      // Whole words only: a word inside another is no match.
      ['Paypal help', []],
      ['Search', []],
      ['Show help', []],
      ['Sender settings', []],
    ];
    for (const [caption, kinds] of cases) assert.deepEqual(captionKinds(caption), kinds, caption);
  });

  it('a form with card fields, a password, or posting to another site is consequential to submit, not to fill', () => {
    const form = { method: 'post' as const, hasPassword: false, cardFields: [] };
    assert.deepEqual(derived({ action: 'submit', caption: 'Continue', form: { ...form, cardFields: ['cc-number'] } }), [
      'the form has payment card fields (cc-number)',
    ]);
    assert.deepEqual(derived({ action: 'submit', caption: 'Sign in', form: { ...form, hasPassword: true } }), [
      'the form sends a password',
    ]);
    assert.deepEqual(
      derived({ action: 'submit', caption: 'Go', form: { ...form, crossOrigin: 'https://other.example' } }),
      ['the form posts to another site (https://other.example)'],
    );
    assert.deepEqual(
      derived({ action: 'submit', caption: 'Go', form: { ...form, method: 'get', crossOrigin: 'https://x.example' } }),
      [],
    );
    assert.deepEqual(
      derived({ action: 'fill', caption: 'Card number', form: { ...form, cardFields: ['cc-number'] } }),
      [],
    );
    assert.deepEqual(derived({ action: 'submit', caption: 'Continue', form: { ...form, title: 'Delete account' } }), [
      "the form's title reads as deletion",
    ]);
  });

  it('an upload, a page tool marked destructive, an accepted confirm dialog', () => {
    assert.deepEqual(derived({ action: 'upload', caption: 'Profile photo' }), ['uploads a file from this computer']);
    assert.deepEqual(derived({ action: 'other', caption: 'Delete' }), [], 'hovering a Delete button does nothing');
    const pageTool = (annotations: Record<string, unknown> | undefined, strict = false) =>
      consequenceOf({ kind: 'page-tool', annotations, strict });
    assert.deepEqual(pageTool({ destructiveHint: true }), ['the page marks this tool destructive']);
    assert.deepEqual(pageTool(undefined), []);
    assert.equal(pageTool(undefined, true).length, 1, 'a strict site asks about tools not marked read-only');
    assert.deepEqual(pageTool({ readOnlyHint: true }, true), []);
    const dialog = (kind: 'alert' | 'confirm', accept: boolean) =>
      consequenceOf({ kind: 'dialog', dialog: kind, accept });
    assert.deepEqual(dialog('confirm', true), ['accepts a confirm dialog']);
    assert.deepEqual(dialog('confirm', false), [], 'Cancel is never consequential');
    assert.deepEqual(dialog('alert', true), []);
  });

  it("the person's choice for a site wins, then the options page, then the agent's --confirm; headless allows", () => {
    const stored = withSiteChoice({ default: 'deny' }, 'shop.example', 'allow');
    assert.deepEqual(choosePolicy(stored, 'ask', false, 'shop.example'), {
      mode: 'allow',
      source: 'site',
      strict: false,
    });
    assert.deepEqual(choosePolicy(stored, 'allow', false, 'bank.example').mode, 'deny');
    assert.deepEqual(choosePolicy({}, 'allow', false, 'bank.example'), {
      mode: 'allow',
      source: 'agent',
      strict: false,
    });
    assert.deepEqual(choosePolicy({}, undefined, false, 'bank.example'), {
      mode: 'ask',
      source: 'default',
      strict: false,
    });
    assert.deepEqual(choosePolicy({}, undefined, true, 'bank.example'), {
      mode: 'allow',
      source: 'headless',
      strict: false,
    });
    assert.equal(choosePolicy({ strictSites: ['bank.example'] }, undefined, false, 'bank.example').strict, true);
  });
});

/** The same rules on a checkout page in real Chromium: the content script's facts, read before anything runs. */
describe('confirmation rules on a checkout page', () => {
  let harness: DomHarness;
  let page: Page;
  before(async () => {
    harness = await startDomHarness();
    page = await harness.page();
    await page.goto(example('widgets/checkout.html'));
  });
  after(() => harness?.close());

  const describeCall = async (name: string, args: Record<string, unknown> = {}) => {
    const described = await page.evaluate(
      ([name, args]) => {
        const global = globalThis as unknown as {
          __domTools: { DomToolServer: new (doc: Document) => unknown };
          __server?: unknown;
        };
        global.__server ??= new global.__domTools.DomToolServer(document);
        const server = global.__server as { describe(params: unknown): { derived: boolean; facts?: ActionFacts } };
        return server.describe({ name, arguments: args });
      },
      [name, args] as const,
    );
    assert.equal(described.derived, true);
    return described.facts;
  };

  it('the payment form: its Pay button, card fields, the card number masked; nothing was submitted', async () => {
    const { tools, content } = await harness.derive(page);
    const names = tools.map((tool) => tool.name);
    const pay = names.find((name) => name.startsWith('pay'));
    assert.ok(pay, names.join(', '));
    const facts = await describeCall(pay, { holder: 'Ada Lovelace', card: '4242 4242 4242 4242', cvc: '123' });
    assert.equal(facts?.action, 'submit');
    assert.equal(facts?.caption, 'Pay €20.00');
    assert.deepEqual(facts?.form?.cardFields, ['cc-name', 'cc-number', 'cc-csc']);
    assert.deepEqual(facts?.values, [
      { name: 'holder', value: 'Ada Lovelace' },
      { name: 'card', value: '•••• 4242' },
      { name: 'cvc', value: '•••' },
    ]);
    assert.deepEqual(derived(facts as ActionFacts), [
      'its caption reads as payment',
      'the form has payment card fields (cc-name, cc-number, cc-csc)',
    ]);
    assert.equal(await page.evaluate(() => (window as unknown as { seen: { payments: number } }).seen.payments), 0);
    assert.ok(content.includes('Checkout'));
  });

  it('a search form is not consequential; a form posting to another site is', async () => {
    const names = (await harness.derive(page)).tools.map((tool) => tool.name);
    const search = names.find((name) => name.includes('search'));
    assert.ok(search, names.join(', '));
    assert.deepEqual(derived((await describeCall(search, { q: 'socks' })) as ActionFacts), []);
    const news = names.find((name) => name.startsWith('keep_me_posted'));
    assert.ok(news, names.join(', '));
    assert.deepEqual(derived((await describeCall(news, { email: 'a@b.example' })) as ActionFacts), [
      'the form posts to another site (https://mail.example.net)',
    ]);
  });

  it('a delete button is; a help button is not; an upload through act is', async () => {
    const { tools, content } = await harness.derive(page);
    const names = tools.map((tool) => tool.name);
    assert.ok(names.includes('delete_address') && names.includes('show_help'), names.join(', '));
    assert.deepEqual(derived((await describeCall('delete_address')) as ActionFacts), ['its caption reads as deletion']);
    assert.deepEqual(derived((await describeCall('show_help')) as ActionFacts), []);
    // The handle from a fresh page read: the describing server keeps the page's handles.
    await page.evaluate(() => {
      (globalThis as unknown as { __server?: unknown }).__server = undefined;
    });
    const read = await page.evaluate(async () => {
      const global = globalThis as unknown as {
        __domTools: { DomToolServer: new (doc: Document) => unknown };
        __server?: unknown;
      };
      global.__server = new global.__domTools.DomToolServer(document);
      const server = global.__server as {
        call(name: string, args: unknown): Promise<{ content: Array<{ text: string }> }>;
      };
      return (await server.call('get_page_content', {})).content[0]?.text ?? '';
    });
    const handle = /Profile photo \[button ([a-z]\d+)\]/.exec(read)?.[1];
    assert.ok(handle, `the file field has a handle in:\n${read}\n(first read:\n${content})`);
    const facts = await describeCall('act', { handle, action: 'upload', value: '/tmp/photo.png' });
    assert.equal(facts?.action, 'upload');
    assert.deepEqual(derived(facts as ActionFacts), ['uploads a file from this computer']);
  });
});
