import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { ErrorCode, ProtocolError, type ServerToExtension } from '@tabmcp/protocol';
import { LinkEndpoint } from '../src/link/link-endpoint';

describe('LinkEndpoint: one agent end of the browser link', () => {
  it('a timeout names what timed out', async () => {
    // openTab's bound is the page-load budget plus a margin (~35 s): the clock is mocked, not waited out.
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const endpoint = new LinkEndpoint(undefined, 20);
      endpoint.attach(() => {});
      const focusing = assert.rejects(
        endpoint.focusTab(42),
        /The browser extension \(focusTab 42\) did not answer within 20 ms/,
      );
      mock.timers.tick(20);
      await focusing;
      const opening = assert.rejects(
        endpoint.openTab('https://slow.example/', true, 0),
        (error: Error) => error instanceof ProtocolError && /openTab https:\/\/slow\.example\//.test(error.message),
      );
      mock.timers.tick(120_000);
      await opening;
    } finally {
      mock.timers.reset();
    }
  });

  it('detaching answers every call in flight at once, with the reason', async () => {
    const endpoint = new LinkEndpoint();
    const sent: ServerToExtension[] = [];
    endpoint.attach((message) => sent.push(message));
    const calls = [endpoint.callTool(1, 'slow', {}, 60_000), endpoint.connect(), endpoint.closeTab(3)];
    assert.equal(endpoint.inFlight, 3);
    endpoint.detach('The browser extension disconnected (code 1001)');
    for (const call of calls) {
      await assert.rejects(
        call,
        (error: Error) => error instanceof ProtocolError && error.code === ErrorCode.BrowserNotConnected,
      );
    }
    assert.equal(endpoint.inFlight, 0);
    await assert.rejects(endpoint.focusTab(1), /not connected; call connect_browser/);
  });

  it('matches replies by id, logs replies nobody waits for, and passes events on', async () => {
    const logged: string[] = [];
    const endpoint = new LinkEndpoint((event) => logged.push(event));
    const sent: ServerToExtension[] = [];
    endpoint.attach((message) => sent.push(message));
    const events: string[] = [];
    endpoint.on('event', (event) => events.push(event.type));
    const closing = endpoint.closeTab(5);
    const request = sent[0];
    assert.ok(request && request.type === 'closeTab');
    endpoint.receive({ type: 'response', requestId: 'not-mine', result: {} });
    endpoint.receive({ type: 'response', requestId: request.requestId, result: { closed: true, tabId: 5 } });
    assert.deepEqual(await closing, { closed: true, tabId: 5 });
    endpoint.receive({ type: 'tabClosed', tabId: 5 });
    assert.deepEqual(logged, ['link.unknown-reply']);
    assert.deepEqual(events, ['tabClosed']);
  });

  it('checks the replies to openTab, focusTab and closeTab against their schemas (issue 27 D29)', async () => {
    const endpoint = new LinkEndpoint();
    const sent: ServerToExtension[] = [];
    endpoint.attach((message) => sent.push(message));
    const idOf = () => {
      const request = sent.at(-1);
      return request && 'requestId' in request ? request.requestId : '';
    };
    const focusing = endpoint.focusTab(5);
    endpoint.receive({ type: 'response', requestId: idOf(), result: { tab: { id: 'five' } } });
    await assert.rejects(focusing, /Invalid focusTab reply from the extension/);
    const opening = endpoint.openTab('https://example.com/', true, 0);
    endpoint.receive({ type: 'response', requestId: idOf(), result: { focused: true } });
    await assert.rejects(opening, /Invalid openTab reply/);
    const closing = endpoint.closeTab(5);
    endpoint.receive({ type: 'response', requestId: idOf(), result: { closed: 'yes', tabId: 5 } });
    await assert.rejects(closing, /Invalid closeTab reply/);
  });

  it("hands a call's waitingForPerson to that call's listener, until the call answers", async () => {
    const endpoint = new LinkEndpoint();
    const sent: ServerToExtension[] = [];
    endpoint.attach((message) => sent.push(message));
    const heard: number[] = [];
    const call = endpoint.callTool(1, 'pay', {}, 1_000, (wait) => heard.push(wait.since));
    const callId = sent[0]?.type === 'callTool' ? sent[0].callId : '';
    const wait = { site: 'shop.example', tool: 'pay', since: 5, until: 45_005 };
    endpoint.receive({ type: 'waitingForPerson', requestId: callId, wait });
    endpoint.receive({ type: 'waitingForPerson', requestId: 'another', wait: { ...wait, since: 6 } });
    assert.deepEqual(heard, [5]);
    endpoint.receive({ type: 'toolResult', callId, result: { content: [] } });
    await call;
    endpoint.receive({ type: 'waitingForPerson', requestId: callId, wait: { ...wait, since: 7 } });
    assert.deepEqual(heard, [5], 'nothing once the call answered');
  });

  it('keeps the code of a failed page tool call, so the server can tell what happened', async () => {
    const endpoint = new LinkEndpoint();
    const sent: ServerToExtension[] = [];
    endpoint.attach((message) => sent.push(message));
    const calling = endpoint.callTool(1, 'buy', {}, 1_000);
    const request = sent[0];
    assert.ok(request && request.type === 'callTool');
    endpoint.receive({
      type: 'toolResult',
      callId: request.callId,
      error: 'went away',
      code: ErrorCode.PageLostMidCall,
    });
    await assert.rejects(
      calling,
      (error: Error) => error instanceof ProtocolError && error.code === ErrorCode.PageLostMidCall,
    );
  });
});
