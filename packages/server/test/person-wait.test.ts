import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PERSON_WAIT_MS, type PersonWait } from '@tabmcp/protocol';
import { STILL_WAITING_EVERY_MS, sayingWhenWaiting } from '../src/core/person-wait';

const wait = (since: number): PersonWait => ({
  site: 'shop.example',
  tool: 'pay',
  since,
  until: since + PERSON_WAIT_MS,
});

describe('a call waiting for the person says so', () => {
  it('at once, then every few seconds while it waits, and never after it answered', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: Date.UTC(2026, 10, 29, 8, 41, 37) });
    const said: Array<[string, string | undefined]> = [];
    let answer: (value: string) => void = () => {};
    const call = sayingWhenWaiting(
      (message, kind) => said.push([kind ?? 'step', message]),
      (onWaiting) => {
        onWaiting(wait(Date.now()));
        return new Promise<string>((resolve) => {
          answer = resolve;
        });
      },
    );
    assert.deepEqual(
      said.map(([kind]) => kind),
      ['waiting'],
    );
    assert.match(
      said[0]?.[1] ?? '',
      /confirm pay on shop\.example .*since 08:41:37Z, until 08:42:22Z at most \(45 s\)/,
    );
    t.mock.timers.tick(2 * STILL_WAITING_EVERY_MS);
    assert.deepEqual(
      said.map(([kind]) => kind),
      ['waiting', 'still waiting', 'still waiting'],
    );
    assert.match(said[2]?.[1] ?? '', /10 s so far, 35 s more at most/);
    answer('confirmed');
    assert.equal(await call, 'confirmed');
    t.mock.timers.tick(4 * STILL_WAITING_EVERY_MS);
    assert.equal(said.length, 3, 'nothing once the call answered');
  });

  it('stops repeating once the latest time for an answer has passed', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: 1_000_000 });
    const said: string[] = [];
    let answer: () => void = () => {};
    const call = sayingWhenWaiting(
      (message) => said.push(message),
      (onWaiting) => {
        onWaiting(wait(Date.now()));
        return new Promise<void>((resolve) => {
          answer = resolve;
        });
      },
    );
    for (let waited = 0; waited < PERSON_WAIT_MS + 4 * STILL_WAITING_EVERY_MS; waited += STILL_WAITING_EVERY_MS)
      t.mock.timers.tick(STILL_WAITING_EVERY_MS);
    assert.equal(said.length, 1 + Math.floor((PERSON_WAIT_MS - 1) / STILL_WAITING_EVERY_MS));
    answer();
    await call;
  });
});
