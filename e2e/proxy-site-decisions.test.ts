// Issue 26, medium, in real Chromium through a real proxy: proxy mode honours the user's site decisions.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ErrorCode } from '@tabmcp/protocol';
import { type ProxyServer, silentLogger, startProxy } from '@tabmcp/proxy';
import { waitFor } from '../test-support/harness';
import { SECRET, tokenFor } from '../test-support/proxy/fixtures';
import {
  launchProxyBrowser,
  type ProxyBrowser,
  RawProxyClient,
  startTestSite,
  type TestSite,
} from '../test-support/proxy-harness';

const BROWSER = 'Site Decisions Chromium';
const SECRET_TEXT = 'account balance 4242';

/**
 * The attacker is a remote client holding the user's token: it may drive the user's browser, but only
 * on sites the user allowed. 127.0.0.2 is a site nobody allowed (only 127.0.0.1 and localhost are, by
 * default); its page holds a session cookie and some text.
 */
describe('security: proxy mode refuses every page method on a site the user has not allowed (issue 26)', () => {
  let site: TestSite;
  let other: Server;
  let otherUrl: string;
  let proxy: ProxyServer;
  let browser: ProxyBrowser;
  let raw: RawProxyClient;
  let allowedTab: number;
  let notAllowedTab: number;
  let embedding: Server;
  let embeddingUrl: string;

  before(async () => {
    site = await startTestSite();
    other = createServer((_request, response) => {
      response
        .writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'session=s3cr3t; Path=/' })
        .end(`<!doctype html><title>bank</title><input id="to"><p>${SECRET_TEXT}</p>`);
    });
    await new Promise<void>((done) => other.listen(0, '127.0.0.2', done));
    otherUrl = `http://127.0.0.2:${(other.address() as AddressInfo).port}/`;
    // An allowed site (127.0.0.1) whose page embeds the site nobody allowed.
    embedding = createServer((_request, response) => {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><title>portal</title><p>portal</p><iframe src="${otherUrl}"></iframe>`);
    });
    await new Promise<void>((done) => embedding.listen(0, '127.0.0.1', done));
    embeddingUrl = `http://127.0.0.1:${(embedding.address() as AddressInfo).port}/`;
    proxy = await startProxy({ port: 0, auth: { secret: SECRET }, logger: silentLogger });
    const token = await tokenFor('user-site-decisions');
    browser = await launchProxyBrowser({ proxyUrl: proxy.url, proxyToken: token, browserName: BROWSER });
    raw = await RawProxyClient.connect(proxy.url, token, BROWSER);
    notAllowedTab = (await raw.result<{ tabId: number }>('createTab', { url: otherUrl })).tabId;
    allowedTab = (await raw.result<{ tabId: number }>('createTab', { url: `${site.url}/plain/about.html` })).tabId;
  });

  after(async () => {
    raw?.close();
    await browser?.close();
    await proxy?.close();
    await site?.close();
    await new Promise((done) => other?.close(done));
    await new Promise((done) => embedding?.close(done));
  });

  const refused = async (method: string, params: Record<string, unknown>) => {
    const reply = await raw.request(method, params);
    const error = reply.error as { code: number; message: string } | undefined;
    assert.equal(error?.code, ErrorCode.SiteNotAllowed, `${method}: ${JSON.stringify(reply).slice(0, 300)}`);
    assert.doesNotMatch(JSON.stringify(reply), /4242|s3cr3t/);
    return error?.message ?? '';
  };

  it('the page of a site not allowed cannot be read, clicked, typed into or captured', async () => {
    const message = await refused('forwardCDPCommand', {
      tabId: notAllowedTab,
      method: 'Runtime.evaluate',
      params: { expression: 'document.body.innerText', returnByValue: true },
    });
    assert.match(message, /127\.0\.0\.2, which is not allowed yet.*tabmcp popup/);
    await refused('forwardCDPCommand', { tabId: notAllowedTab, method: 'Network.getCookies', params: {} });
    await refused('screenshot', { tabId: notAllowedTab });
    await refused('click', { tabId: notAllowedTab, x: 5, y: 5 });
    await refused('type', { tabId: notAllowedTab, selector: '#to', text: 'attacker' });
    await refused('hover', { tabId: notAllowedTab, x: 5, y: 5 });
  });

  it("a tab of an allowed site cannot reach another site's cookies or storage", async () => {
    await refused('forwardCDPCommand', {
      tabId: allowedTab,
      method: 'Network.getCookies',
      params: { urls: [otherUrl] },
    });
    await refused('forwardCDPCommand', { tabId: allowedTab, method: 'Network.getAllCookies', params: {} });
    await refused('forwardCDPCommand', {
      tabId: allowedTab,
      method: 'Storage.getCookies',
      params: {},
    });
  });

  it('a frame of a site not allowed inside an allowed tab is out of reach of CDP, screenshots and input', async () => {
    const tabId = (await raw.result<{ tabId: number }>('createTab', { url: embeddingUrl })).tabId;
    // The frame has loaded the site not allowed (seen from outside the proxy, over the test's own CDP).
    await waitFor(
      () =>
        browser.context
          .pages()
          .find((page) => page.url() === embeddingUrl)
          ?.frames()
          .some((frame) => frame.url() === otherUrl) || undefined,
      15_000,
      'the embedded frame of 127.0.0.2 to load',
    );
    const message = await refused('forwardCDPCommand', {
      tabId,
      method: 'Runtime.evaluate',
      params: { expression: 'document.querySelector("iframe").src', returnByValue: true },
    });
    assert.match(message, /embeds a frame of 127\.0\.0\.2, which is not allowed yet/);
    await refused('forwardCDPCommand', { tabId, method: 'Page.getFrameTree', params: {} });
    await refused('forwardCDPCommand', { tabId, method: 'DOM.getDocument', params: { depth: -1, pierce: true } });
    await refused('forwardCDPCommand', { tabId, method: 'Page.createIsolatedWorld', params: { frameId: 'x' } });
    await refused('screenshot', { tabId });
    await refused('click', { tabId, x: 20, y: 60 });
  });

  it('the allowed site still works through every method', async () => {
    const evaluated = await raw.result<{ result: { result: { value: number } } }>('forwardCDPCommand', {
      tabId: allowedTab,
      method: 'Runtime.evaluate',
      params: { expression: '6 * 7', returnByValue: true },
    });
    assert.equal(evaluated.result.result.value, 42);
    const shot = await raw.result<{ data: string }>('screenshot', { tabId: allowedTab });
    assert.ok(shot.data.length > 100);
  });
});
