import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, type ExtensionToServer, type ServerToExtension } from '@tabmcp/protocol';
import { ExtensionMux, type MuxClient } from '../src/link/extension-mux';

function recorder() {
  const events: string[] = [];
  const delivered: ExtensionToServer[] = [];
  const client: MuxClient = {
    deliver: (message) => delivered.push(message),
    up: () => events.push('up'),
    down: (reason) => events.push(`down: ${reason}`),
  };
  return { client, events, delivered };
}

describe('ExtensionMux: one extension link, several agents', () => {
  it('prefixes each client ids on the way out and restores them on the way back', () => {
    const mux = new ExtensionMux();
    const sent: ServerToExtension[] = [];
    mux.extensionConnected((message) => sent.push(message));
    const a = recorder();
    const b = recorder();
    const handleA = mux.addClient(a.client);
    const handleB = mux.addClient(b.client);
    assert.deepEqual([a.events, b.events], [['up'], ['up']]);

    handleA.send({ type: 'focusTab', requestId: 's1', tabId: 4 });
    handleB.send({ type: 'callTool', callId: 's1', tabId: 5, toolName: 't', args: {} });
    assert.deepEqual(
      sent.map((message) => ('callId' in message ? message.callId : 'requestId' in message ? message.requestId : '')),
      [`${handleA.id}.s1`, `${handleB.id}.s1`],
    );

    assert.equal(mux.fromExtension({ type: 'toolResult', callId: `${handleB.id}.s1`, result: { content: [] } }), true);
    assert.equal(mux.fromExtension({ type: 'response', requestId: `${handleA.id}.s1`, result: { ok: 1 } }), true);
    assert.deepEqual(b.delivered, [{ type: 'toolResult', callId: 's1', result: { content: [] } }]);
    assert.deepEqual(a.delivered, [{ type: 'response', requestId: 's1', result: { ok: 1 } }]);
  });

  it('fans events out to every client and drops replies nobody waits for', () => {
    const mux = new ExtensionMux();
    mux.extensionConnected(() => {});
    const a = recorder();
    const b = recorder();
    const handleA = mux.addClient(a.client);
    mux.addClient(b.client);
    mux.fromExtension({ type: 'tabClosed', tabId: 3 });
    assert.equal(a.delivered.length, 1);
    assert.equal(b.delivered.length, 1);
    assert.equal(mux.fromExtension({ type: 'response', requestId: 'c99.s1', result: {} }), false);
    assert.equal(mux.fromExtension({ type: 'response', requestId: 'no-prefix', result: {} }), false);
    handleA.close();
    assert.equal(mux.fromExtension({ type: 'response', requestId: `${handleA.id}.s1`, result: {} }), false);
    mux.fromExtension({ type: 'tabClosed', tabId: 4 });
    assert.equal(a.delivered.length, 1, 'a closed client hears nothing more');
  });

  it("routes a call's mid-call word (waitingForPerson) like its reply: to the caller alone, under its own id", () => {
    const mux = new ExtensionMux();
    mux.extensionConnected(() => {});
    const a = recorder();
    const b = recorder();
    mux.addClient(a.client);
    const handleB = mux.addClient(b.client);
    const wait = { site: 'shop.example', tool: 'pay', since: 1, until: 45_001 };
    assert.equal(mux.fromExtension({ type: 'waitingForPerson', requestId: `${handleB.id}.s7`, wait }), true);
    assert.deepEqual(b.delivered, [{ type: 'waitingForPerson', requestId: 's7', wait }]);
    assert.deepEqual(a.delivered, [], 'another agent does not hear of it');
  });

  it('answers at once while the extension is away, and tells clients when it comes and goes', () => {
    const mux = new ExtensionMux();
    const a = recorder();
    const handle = mux.addClient(a.client);
    assert.deepEqual(a.events, []);
    handle.send({ type: 'connect', requestId: 's1' });
    handle.send({ type: 'callTool', callId: 's2', tabId: 1, toolName: 'x', args: {} });
    assert.equal(a.delivered[0]?.type, 'response');
    assert.match(JSON.stringify(a.delivered[0]), /not connected/);
    assert.deepEqual(a.delivered[1], {
      type: 'toolResult',
      callId: 's2',
      error: 'The browser extension is not connected; call connect_browser.',
      code: ErrorCode.BrowserNotConnected,
    });
    mux.extensionConnected(() => {});
    mux.extensionDisconnected('worker stopped');
    assert.deepEqual(a.events, ['up', 'down: worker stopped']);
  });

  it('refuses ids that would not fit the link once prefixed', () => {
    const mux = new ExtensionMux();
    const sent: ServerToExtension[] = [];
    mux.extensionConnected((message) => sent.push(message));
    const a = recorder();
    mux.addClient(a.client).send({ type: 'closeTab', requestId: 'x'.repeat(101), tabId: 1 });
    assert.equal(sent.length, 0);
    assert.match(JSON.stringify(a.delivered[0]), /longer than 100/);
  });
});

describe("ExtensionMux: the hub's list goes only to clients that watch it (issue 24, item 4)", () => {
  const change: ExtensionToServer = { type: 'hubToolsChanged', revision: 1, changed: [], removed: ['x'] };

  it('delivers hubToolsChanged to watchers only, and unwatches when the last one leaves', () => {
    const mux = new ExtensionMux();
    const sent: ServerToExtension[] = [];
    mux.extensionConnected((message) => sent.push(message));
    const focused = recorder();
    const all = recorder();
    const alsoAll = recorder();
    mux.addClient(focused.client);
    const allHandle = mux.addClient(all.client);
    const alsoHandle = mux.addClient(alsoAll.client);
    allHandle.send({ type: 'listHubTools', requestId: 's1', watch: true });
    alsoHandle.send({ type: 'listHubTools', requestId: 's1', watch: true });
    mux.fromExtension(change);
    assert.deepEqual(focused.delivered, [], 'the focused view never hears the catalog');
    assert.deepEqual(all.delivered, [change]);
    assert.deepEqual(alsoAll.delivered, [change]);

    allHandle.close();
    assert.ok(!sent.some((message) => message.type === 'unwatchHubTools'), 'one watcher is left');
    alsoHandle.close();
    const unwatch = sent.find((message) => message.type === 'unwatchHubTools');
    assert.ok(unwatch, 'the last watcher gone: the extension stops sending');
    // Its reply is the mux's own, for nobody.
    assert.equal(mux.fromExtension({ type: 'response', requestId: unwatch.requestId, result: {} }), true);
    mux.fromExtension(change);
    assert.deepEqual(focused.delivered, []);
  });
});
