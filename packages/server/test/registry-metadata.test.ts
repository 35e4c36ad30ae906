import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/**
 * Issue 11: the MCP registry lists tabmcp from server.json and verifies the npm package by its
 * `mcpName`; both must name the same server and the version being published.
 */
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const packageJson = read(join(import.meta.dirname, '..', 'package.json'));
const serverJson = read(join(import.meta.dirname, '..', '..', '..', 'server.json'));

describe('server.json for the MCP registry', () => {
  it('names the npm package, its mcpName and its version', () => {
    assert.equal(serverJson.name, packageJson.mcpName);
    assert.equal(serverJson.version, packageJson.version);
    assert.ok(serverJson.description.length <= 100, 'the registry caps a description at 100 characters');
    assert.deepEqual(
      serverJson.packages.map((entry: { registryType: string; identifier: string; version: string }) => [
        entry.registryType,
        entry.identifier,
        entry.version,
      ]),
      [['npm', packageJson.name, packageJson.version]],
    );
  });

  it('lists only environment variables that tabmcp --help documents', async () => {
    const { USAGE } = await import('../src/options');
    for (const entry of serverJson.packages[0].environmentVariables as Array<{ name: string }>)
      assert.ok(USAGE.includes(entry.name), `${entry.name} is not in --help`);
  });
});
