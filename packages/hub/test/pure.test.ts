import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuditLog, bestTabForDomain, domainOf, hubToolName, SitePolicy, siteOf } from '@tabmcp/hub';
import { type LiveTab, TabNumbers } from '../src/tab-numbers';

describe('site policy', () => {
  it('allows loopback by default, waits for the user elsewhere, and remembers decisions', () => {
    const policy = new SitePolicy();
    for (const url of ['http://127.0.0.1:3000/', 'http://localhost/', 'http://[::1]:8080/x', 'http://app.localhost/']) {
      assert.equal(policy.access(url), 'allowed', url);
    }
    assert.equal(policy.access('https://example.com/'), 'pending');
    assert.equal(policy.access('file:///etc/passwd'), 'blocked');
    assert.equal(policy.access('not a url'), 'blocked');
    assert.equal(policy.set('Example.com', 'allow'), true);
    assert.equal(policy.access('https://example.com:8443/a'), 'allowed');
    assert.equal(policy.set('example.com', 'allow'), false);
    policy.set('localhost', 'block');
    assert.equal(policy.access('http://localhost:1234/'), 'blocked');
    policy.set('localhost', undefined);
    assert.equal(policy.access('http://localhost:1234/'), 'allowed');
    assert.deepEqual(policy.entries(), [{ site: 'example.com', decision: 'allow' }]);
  });

  it('sites are host names, domains keep the port', () => {
    assert.equal(siteOf('https://A.example:444/x'), 'a.example');
    assert.equal(domainOf('https://A.example:444/x'), 'a.example:444');
    assert.equal(domainOf('https://a.example:443/x'), 'a.example');
    assert.equal(domainOf('about:blank'), undefined);
  });
});

describe('tool namer', () => {
  it('follows docs/requirements.md#hub and stays within 64 safe characters', () => {
    const taken = new Set<string>();
    assert.equal(hubToolName('example.com', 1, 'getCart', taken), 'website_tool_example_com_tab1_getCart');
    assert.equal(hubToolName('example.com', undefined, 'getCart', taken), 'website_tool_example_com_getCart');
    assert.equal(hubToolName('example.com', 1, 'getCart', taken), 'website_tool_example_com_tab1_getCart_2');
    const long = hubToolName('example.com', 12, 'a'.repeat(80), taken);
    const other = hubToolName('example.com', 12, `${'a'.repeat(79)}b`, taken);
    assert.equal(long.length, 64);
    assert.notEqual(long, other);
    assert.match(other, /^[A-Za-z0-9_-]{1,64}$/);
  });

  it('names clashing tools by what they are, not by where they stand in the list (issue 27 H5)', () => {
    const nameAll = (tools: string[]) => {
      const taken = new Set<string>();
      return new Map(tools.map((tool) => [tool, hubToolName('shop.test', 1, tool, taken)]));
    };
    const tools = ['cart.add', 'cart_add', 'ünïcode', 'ñäme'];
    const forward = nameAll(tools);
    const backward = nameAll([...tools].reverse());
    assert.deepEqual([...backward].sort(), [...forward].sort(), 'each tool keeps its name when the list is reordered');
    assert.equal(new Set(forward.values()).size, tools.length);
    assert.equal(forward.get('cart_add'), 'website_tool_shop_test_tab1_cart_add', 'a safe name is kept as it is');
    // A tool that joins later takes no name from the ones already there.
    assert.deepEqual(nameAll(['cart.add']).get('cart.add'), forward.get('cart.add'));
  });
});

describe('routing choice', () => {
  const tab = (tabId: number, updatedAt: number, tools: string[], domain = 'a.com') => ({
    tabId,
    domain,
    updatedAt,
    hasTool: (name: string) => tools.includes(name),
  });
  it('prefers the active tab with the tool, then the newest, never another domain', () => {
    const tabs = [tab(1, 10, ['x']), tab(2, 30, ['x']), tab(3, 50, ['y']), tab(4, 99, ['x'], 'b.com')];
    assert.equal(bestTabForDomain(tabs, 'a.com', 'x', 1)?.tabId, 1);
    assert.equal(bestTabForDomain(tabs, 'a.com', 'x', 3)?.tabId, 2);
    assert.equal(bestTabForDomain(tabs, 'a.com', 'x', undefined, new Set([2]))?.tabId, 1);
    assert.equal(bestTabForDomain(tabs, 'c.com', 'x', undefined), undefined);
  });
});

describe('audit log', () => {
  it('keeps the newest entries, newest first', () => {
    const log = new AuditLog(3);
    for (let i = 0; i < 5; i++) log.add({ at: i, kind: i % 2 ? 'call' : 'register' });
    assert.deepEqual(
      log.recent().map((entry) => entry.at),
      [4, 3, 2],
    );
    assert.deepEqual(
      log.recent(['call']).map((entry) => entry.at),
      [3],
    );
  });
});

describe('tab numbers past their caps (issue 39 Q6)', () => {
  it("keeps a live tab's number and its domain's counter however many other tabs and domains come and go", () => {
    const live: LiveTab[] = [{ tabId: 1, domain: 'shop.example' }];
    const numbers = new TabNumbers(undefined, () => live);
    assert.equal(numbers.numberFor('shop.example', 1), 1);
    for (let index = 0; index < 6_000; index++) numbers.numberFor(`site${index}.example`, 10_000 + index);
    // A tab restored with number 1 must not share it with the live tab 1; a new tab gets the next number.
    assert.equal(numbers.adopt('shop.example', 2, 1), 2);
    assert.equal(numbers.numberFor('shop.example', 3), 3);
    assert.equal(numbers.numberFor('shop.example', 1), 1, 'the live tab keeps its number');
  });
});
