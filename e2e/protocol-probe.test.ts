import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serverBin } from '../test-support/paths';
import { type Machine, newMachine } from '../test-support/server-harness';
import { waitFor } from '../test-support/wait';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'tabmcp-e2e-probe', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Whether something accepts TCP connections on the loopback port. */
function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/**
 * A 2.x client in auto mode probes `server/discover` on a sibling tabmcp spawned from the same
 * command, then kills it (docs/mcp-eras.md). That process must start nothing: no link server on
 * the port, no browser, even with --launch. The link starts when the connection turns out to be a
 * session (any other message).
 */
describe('a tabmcp that only answers a server/discover probe', () => {
  let machine: Machine;
  let child: ChildProcessWithoutNullStreams;
  let stdout = '';
  let stderr = '';

  const answerTo = (id: number) =>
    waitFor(
      () =>
        stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { id?: number; result?: Record<string, unknown> })
          .find((message) => message.id === id),
      10_000,
      `the answer to request ${id}`,
    );
  const send = (id: number, method: string) =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: META } })}\n`);

  before(async () => {
    machine = await newMachine();
    child = spawn(process.execPath, [serverBin, '--launch', '--headless', '--port', String(machine.port)], {
      env: { ...process.env, TABMCP_HOME: machine.home },
    });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
  });

  after(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((done) => child.once('exit', done));
    }
    machine?.close();
  });

  it('answers it and starts no link server and no browser, even with --launch', async () => {
    send(1, 'server/discover');
    const discovered = await answerTo(1);
    assert.deepEqual(discovered.result?.supportedVersions, ['2026-07-28']);
    // The SDK may retry the probe; a second one changes nothing either.
    send(2, 'server/discover');
    await answerTo(2);
    // Nothing to wait for when nothing starts: give a would-be link the time it takes to listen.
    await new Promise((settle) => setTimeout(settle, 1_000));
    assert.equal(await listening(machine.port), false, `nothing listens on the link port\n${stderr}`);
    assert.doesNotMatch(stderr, /"event":"(link\.ready|link\.role|browser\.launched)"/);
  });

  it('starts the link once the connection is a session (a request other than server/discover)', async () => {
    send(3, 'tools/list');
    const listed = await answerTo(3);
    assert.ok(Array.isArray(listed.result?.tools));
    await waitFor(() => listening(machine.port), 10_000, 'the link server on its port');
    assert.match(stderr, /"event":"link.ready"/);
    // --launch still waits for the first connect_browser.
    assert.doesNotMatch(stderr, /"event":"browser.launched"/);
  });
});
