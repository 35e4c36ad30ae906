import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, PendingRequests, ProtocolError } from '../src/index';

describe('PendingRequests', () => {
  it('answers a wait by id, and rejects it with a timeout error that names what did not answer', async () => {
    const pending = new PendingRequests<string>();
    const answered = pending.wait('a', 'g', 1_000, () => 'The page');
    assert.equal(pending.resolve('a', 'yes'), true);
    assert.equal(await answered, 'yes');
    assert.equal(pending.resolve('a', 'again'), false, 'an answer nobody waits for is reported');
    await assert.rejects(
      pending.wait('b', 'g', 5, () => 'The page'),
      /The page did not answer within 5 ms/,
    );
    assert.equal(pending.size, 0);
  });

  it('rejects with the caller-chosen timeout error', async () => {
    const pending = new PendingRequests<string>();
    const error = new ProtocolError(ErrorCode.ServerError, 'Extension did not answer within 5 ms');
    await assert.rejects(
      pending.wait('a', 'g', 5, () => 'x', { timeoutError: () => error }),
      error,
    );
  });

  it('stops waiting when the signal aborts, with the signal reason, and forgets the request', async () => {
    const pending = new PendingRequests<string>();
    const controller = new AbortController();
    const waiting = pending.wait('a', 'g', 60_000, () => 'The page', { signal: controller.signal });
    controller.abort(new Error('the agent cancelled'));
    await assert.rejects(waiting, /the agent cancelled/);
    assert.equal(pending.size, 0);
    await assert.rejects(
      pending.wait('b', 'g', 60_000, () => 'x', { signal: controller.signal }),
      /cancelled/,
    );
    assert.equal(pending.size, 0, 'an already aborted signal registers nothing');
  });

  it('rejects a group, everything, and after close every later wait, with the error given', async () => {
    const pending = new PendingRequests<string>();
    const tab1 = pending.wait('a', 1, 60_000, () => 'x');
    const tab2 = pending.wait('b', 2, 60_000, () => 'x');
    assert.equal(
      pending.rejectGroup(1, () => new Error('tab 1 closed')),
      1,
    );
    await assert.rejects(tab1, /tab 1 closed/);
    assert.equal(
      pending.close(() => new Error('The page stopped its MCP server')),
      1,
    );
    await assert.rejects(tab2, /stopped its MCP server/);
    await assert.rejects(
      pending.wait('c', 1, 60_000, () => 'x'),
      /stopped its MCP server/,
    );
    assert.equal(pending.size, 0);
  });

  it('refuses a second wait under a live id instead of stealing the first one answer', async () => {
    const pending = new PendingRequests<string>();
    const first = pending.wait('a', 'g', 60_000, () => 'x');
    await assert.rejects(
      pending.wait('a', 'g', 60_000, () => 'x'),
      /already waiting/,
    );
    pending.resolve('a', 'first');
    assert.equal(await first, 'first');
  });

  it('calls track callbacks synchronously, so a relay keeps the order of its answers', () => {
    const pending = new PendingRequests<string>();
    const heard: string[] = [];
    pending.track('a', 'g', 60_000, () => 'x', { resolve: (value) => heard.push(value), reject: () => {} });
    pending.resolve('a', 'reply');
    heard.push('after');
    assert.deepEqual(heard, ['reply', 'after']);
  });
});
