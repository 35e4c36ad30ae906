import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/** Issue 11: the conventions of a command-line tool, checked on the built bin as a user runs it. */
const bin = join(import.meta.dirname, '..', 'dist', 'tabmcp.js');
const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 10_000 });

describe('tabmcp --version and --help', () => {
  it('--version prints the version of package.json on stdout and exits 0', () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
    for (const flag of ['--version', '-v']) {
      const result = run(flag);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout.trim(), version);
    }
  });

  it('--help goes to stdout and names every flag and environment variable the code reads', () => {
    const result = run('--help');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
    const source = ['options.ts', 'launcher/find-browser.ts', 'launcher/chromium-launcher.ts', 'log.ts', 'pairing.ts']
      .map((file) => readFileSync(join(import.meta.dirname, '..', 'src', file), 'utf8'))
      .join('\n');
    const flags = [...source.matchAll(/^\s+'?([a-z][a-z-]+)'?: \{ type: '(?:string|boolean)'/gm)].map(
      (match) => `--${match[1]}`,
    );
    assert.ok(flags.length > 10, flags.join(' '));
    const variables = [...new Set([...source.matchAll(/\b(CHROME_PATH|TABMCP_[A-Z_]+)\b/g)].map((match) => match[1]))];
    for (const name of [...flags, ...variables])
      assert.ok(result.stdout.includes(name ?? ''), `${name} is not in --help`);
  });
});
