import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SECRET } from '../../../test-support/proxy/fixtures';
import { proxyCli, spawnProxy } from '../../../test-support/proxy/processes';
import { TestSocket } from '../../../test-support/proxy/test-socket';
import { createTokenVerifier, parseDurationSeconds, resolveServeOptions, silentLogger, startProxy } from '../src/index';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs the CLI from source; async so that a test's independent runs go side by side. */
async function cli(args: string[], env: Record<string, string> = {}) {
  const [node, command] = await proxyCli();
  try {
    const { stdout, stderr } = await promisify(execFile)(node, [...command, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      // A bound, not a measure: four starts side by side on a loaded 2-core machine.
      timeout: 60_000,
    });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout = '', stderr = '' } = error as { code?: unknown; stdout?: string; stderr?: string };
    return { status: typeof code === 'number' ? code : null, stdout, stderr };
  }
}

describe('tabmcp-proxy CLI and config', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tabmcp-proxy-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('`token` prints an HS256 JWT the proxy accepts, with the requested lifetime', async () => {
    const secretFile = join(dir, 'secret');
    writeFileSync(secretFile, `${SECRET}\n`);
    const [run, missing, help, bogus] = await Promise.all([
      cli([
        'token',
        '--user',
        'cli-user',
        '--ttl',
        '2h',
        '--secret-file',
        secretFile,
        '--claim',
        'connection_url=wss://x',
      ]),
      cli(['token', '--ttl', '1h'], { TABMCP_PROXY_SECRET: SECRET }),
      cli(['help']),
      cli(['bogus']),
    ]);
    assert.equal(run.status, 0, run.stderr);
    const token = run.stdout.trim();
    const verifier = await createTokenVerifier({ secret: SECRET });
    const identity = await verifier.verify(token);
    assert.equal(identity.userId, 'cli-user');
    const lifetime = (identity.expiresAt ?? 0) - Math.floor(Date.now() / 1000);
    assert.ok(lifetime > 7_100 && lifetime <= 7_200, String(lifetime));
    assert.equal(JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).connection_url, 'wss://x');

    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /--user/);
    assert.equal(help.status, 0);
    assert.equal(bogus.status, 2);
  });

  it('`serve --config` reads a JSON file (paths relative to it) and flags override it', async () => {
    writeFileSync(join(dir, 'secret.txt'), SECRET);
    const config = join(dir, 'proxy.json');
    writeFileSync(
      config,
      JSON.stringify({
        port: 1,
        instanceId: 'from-file',
        auth: { secretFile: 'secret.txt' },
        limits: { rateBurst: 5 },
      }),
    );
    const options = resolveServeOptions({ config, port: '0', burst: '9' }, {});
    assert.equal(options.port, 0);
    assert.equal(options.host, '127.0.0.1');
    assert.equal(options.instanceId, 'from-file');
    assert.deepEqual(options.limits, { rateBurst: 9 });
    assert.equal('secret' in options.auth && options.auth.secret, SECRET);

    assert.throws(() => resolveServeOptions({}, {}), /No token key/);
    assert.throws(
      () => resolveServeOptions({ secret: SECRET, 'tls-cert': 'x.pem' }, {}),
      /both a certificate and a key/,
    );
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ prot: 1 }));
    assert.throws(() => resolveServeOptions({ config: join(dir, 'bad.json') }, {}), /Invalid config/);

    const proxy = await spawnProxy(['--config', config, '--instance-id', 'cli-proxy']);
    try {
      const health = (await (await fetch(`http://127.0.0.1:${proxy.port}/health`)).json()) as { instance_id: string };
      assert.equal(health.instance_id, 'cli-proxy');
    } finally {
      await proxy.stop();
    }
  });

  it('serves wss:// and https:// when given a certificate and key', async (t) => {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
    } catch {
      t.skip('openssl is not available');
      return;
    }
    const options = resolveServeOptions({ secret: SECRET, port: '0', 'tls-cert': cert, 'tls-key': key }, {});
    const proxy = await startProxy({ ...options, logger: silentLogger });
    try {
      assert.match(proxy.url, /^wss:\/\//);
      const ca = readFileSync(cert);
      const socket = await TestSocket.open(`${proxy.url}/extension`, undefined, { ca });
      assert.equal((await socket.next()).method, 'authenticate');
      socket.terminate();
      const health = await new Promise<number>((resolve, reject) => {
        https
          .get(`https://127.0.0.1:${proxy.port}/health`, { ca }, (res) => resolve(res.statusCode ?? 0))
          .on('error', reject);
      });
      assert.equal(health, 200);
    } finally {
      await proxy.close();
    }
  });

  it('parses durations', () => {
    assert.equal(parseDurationSeconds('90'), 90);
    assert.equal(parseDurationSeconds('15m'), 900);
    assert.equal(parseDurationSeconds('1h'), 3600);
    assert.equal(parseDurationSeconds('7d'), 604_800);
    assert.throws(() => parseDurationSeconds('soon'), /Not a duration/);
    assert.throws(() => parseDurationSeconds('0s'), /positive/);
  });
});
