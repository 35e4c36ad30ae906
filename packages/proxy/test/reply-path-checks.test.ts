// Issue 39 Q2, the logic alone: a call the browser's node no longer holds, and that was not answered, fails at
// once with -32011; a node that never answers the check fails its calls after five ticks, not at the call time-out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReplyPathChecks, type WaitingCall } from '../src/core/reply-path';
import { silentLogger } from '../src/log/logger';
import type { Envelope } from '../src/wire/envelopes';

function rig(waiting: WaitingCall[], alive = true) {
  const sent: Envelope[] = [];
  const lostNodes: string[] = [];
  const failed: Array<{ id: string; message: string }> = [];
  const pending = new Set(waiting.map((call) => call.id));
  const checks = new ReplyPathChecks({
    nodeId: 'caller',
    intervalMs: 10,
    publish: async (_nodeId, envelope) => {
      sent.push(envelope);
    },
    isAlive: async () => alive,
    routes: {
      callsWaiting: () => new Map([['browser-node', waiting.filter((call) => pending.has(call.id))]]),
      failCall: (call, _nodeId, message) => {
        if (!pending.delete(call.id)) return false;
        failed.push({ id: call.id, message });
        return true;
      },
      remoteClients: () => new Map(),
      detachClient: () => undefined,
      nodeLost: (nodeId) => lostNodes.push(nodeId),
    },
    logger: silentLogger,
  });
  return { checks, sent, failed, pending, lostNodes };
}

const calls = [
  { connectionId: 'conn-1', id: 'conn-1:1' },
  { connectionId: 'conn-1', id: 'conn-1:2' },
];

describe('reply path checks', () => {
  it('a call neither held nor answered when the answer comes fails at once, naming the link', async () => {
    const { checks, sent, failed } = rig(calls);
    checks.checkCalls();
    const check = sent[0];
    assert.equal(check?.t, 'calls-check');
    if (check?.t !== 'calls-check') return;
    checks.callsHeld({ t: 'calls-held', from: 'browser-node', rid: check.rid, held: ['conn-1:2'] });
    assert.deepEqual(
      failed.map(({ id }) => id),
      ['conn-1:1'],
    );
    assert.match(failed[0]?.message ?? '', /^Link to the browser's instance lost: .*check the page/);
  });

  it('an answer from another node, or to another check, changes nothing', () => {
    const { checks, sent, failed } = rig(calls);
    checks.checkCalls();
    const check = sent[0];
    if (check?.t !== 'calls-check') throw new Error('no check');
    checks.callsHeld({ t: 'calls-held', from: 'elsewhere', rid: check.rid, held: [] });
    checks.callsHeld({ t: 'calls-held', from: 'browser-node', rid: 'another', held: [] });
    assert.deepEqual(failed, []);
  });

  it('a node that does not answer the check fails the calls after five intervals, and not before', async () => {
    const { checks, failed } = rig(calls);
    checks.checkCalls();
    checks.checkCalls();
    assert.equal(failed.length, 0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    checks.checkCalls();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      failed.map(({ id }) => id),
      ['conn-1:1', 'conn-1:2'],
    );
    assert.match(failed[0]?.message ?? '', /has not confirmed this call for \d+ ms/);
  });

  it('a silent node whose heartbeat is gone is reported as gone, by liveness, not as a silent link', async () => {
    const { checks, failed, lostNodes } = rig(calls, false);
    checks.checkCalls();
    await new Promise((resolve) => setTimeout(resolve, 60));
    checks.checkCalls();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(failed, []);
    assert.deepEqual(lostNodes, ['browser-node']);
  });
});
