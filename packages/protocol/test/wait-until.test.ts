import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitUntil, withTimeout } from '../src/index';

describe('waitUntil', () => {
  it('resolves with what the listener reports, and stops listening', async () => {
    let stopped = 0;
    let report: ((value: string) => void) | undefined;
    const waiting = waitUntil<string>(
      (done) => {
        report = done;
        return () => {
          stopped += 1;
        };
      },
      { timeoutMs: 60_000, onTimeout: () => 'late' },
    );
    report?.('arrived');
    report?.('twice');
    assert.equal(await waiting, 'arrived');
    assert.equal(stopped, 1);
  });

  it('stops listening even when the listener reported before it returned its stop', async () => {
    let stopped = false;
    const value = await waitUntil<number>(
      (done) => {
        done(7);
        return () => {
          stopped = true;
        };
      },
      { timeoutMs: 60_000, onTimeout: () => 0 },
    );
    assert.equal(value, 7);
    assert.equal(stopped, true);
  });

  it('gives the timeout value, or rejects with what onTimeout throws, and stops listening', async () => {
    let stopped = 0;
    const stop = () => {
      stopped += 1;
    };
    assert.equal(await waitUntil<boolean>(() => stop, { timeoutMs: 5, onTimeout: () => false }), false);
    await assert.rejects(
      waitUntil<boolean>(() => stop, {
        timeoutMs: 5,
        onTimeout: () => {
          throw new Error('the link never came up');
        },
      }),
      /the link never came up/,
    );
    assert.equal(stopped, 2);
  });

  it('ends at once with the reason when the signal aborts, before or during the wait', async () => {
    const controller = new AbortController();
    let stopped = false;
    const waiting = waitUntil<void>(
      () => () => {
        stopped = true;
      },
      { timeoutMs: 60_000, onTimeout: () => undefined, signal: controller.signal },
    );
    controller.abort(new Error('shutting down'));
    await assert.rejects(waiting, /shutting down/);
    assert.equal(stopped, true);
    await assert.rejects(
      waitUntil<void>(() => undefined, { timeoutMs: 60_000, onTimeout: () => undefined, signal: controller.signal }),
      /shutting down/,
    );
  });
});

describe('withTimeout', () => {
  it('settles as the promise does, or as onTimeout says', async () => {
    assert.equal(await withTimeout(Promise.resolve(1), { timeoutMs: 60_000, onTimeout: () => 0 }), 1);
    await assert.rejects(
      withTimeout(Promise.reject(new Error('failed')), { timeoutMs: 60_000, onTimeout: () => 0 }),
      /failed/,
    );
    assert.equal(await withTimeout(new Promise<number>(() => {}), { timeoutMs: 5, onTimeout: () => -1 }), -1);
  });
});
