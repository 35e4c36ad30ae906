import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * Issue 11: the page SDK as its own npm package. Packed, installed into an empty project, and
 * type-checked there as a TypeScript user would, without skipLibCheck hiding broken declarations.
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const userEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && !entry[0].toLowerCase().startsWith('npm_'),
  ),
);

const CONSUMER = `import { McpWindowProvider, type ToolDescriptor } from '@tabmcp/page';

const provider = new McpWindowProvider({ name: 'shop', version: '1.0.0' });
const tool: ToolDescriptor = { name: 'search', inputSchema: { type: 'object' } };
// @ts-expect-error ServerInfo needs a version: only real declarations catch this, \`any\` would not.
new McpWindowProvider({ name: 'shop' });
export { provider, tool };
`;

function compilerOptions(resolution: Resolution) {
  return {
    module: resolution === 'nodenext' ? 'nodenext' : 'esnext',
    moduleResolution: resolution,
    target: 'es2022',
    lib: ['es2022', 'dom'],
    types: [],
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  };
}

type Resolution = 'nodenext' | 'bundler';

/** tsc over the consumer with one resolution's settings: '' when it type-checks, else what tsc said. */
async function typeCheck(project: string, resolution: Resolution): Promise<string> {
  const config = join(project, `tsconfig.${resolution}.json`);
  writeFileSync(config, JSON.stringify({ compilerOptions: compilerOptions(resolution), include: ['src'] }));
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', config], { cwd: project, encoding: 'utf8' });
    return '';
  } catch (error) {
    const { stdout = '', stderr = '', message } = error as { stdout?: string; stderr?: string; message: string };
    return `${stdout}${stderr}` || message;
  }
}

describe('the @tabmcp/page package, installed into an empty project', () => {
  let project: string;
  // Both resolutions are checked side by side, started once the package is installed.
  const checks = new Map<Resolution, Promise<string>>();

  before(() => {
    project = mkdtempSync(join(tmpdir(), 'tabmcp-page-user-'));
    const packed = JSON.parse(
      execFileSync(
        'npm',
        ['pack', '--json', '--ignore-scripts', '--pack-destination', project, '-w', 'packages/page'],
        { cwd: repoRoot, env: userEnv, encoding: 'utf8', timeout: 60_000 },
      ),
    ) as Array<{ filename: string }>;
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', join(project, packed[0]?.filename ?? 'missing.tgz')],
      { cwd: project, env: userEnv, encoding: 'utf8', timeout: 60_000 },
    );
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, 'src', 'consumer.ts'), CONSUMER);
    for (const resolution of ['nodenext', 'bundler'] as const) {
      const check = typeCheck(project, resolution);
      checks.set(resolution, check);
    }
  });

  after(async () => {
    await Promise.allSettled(checks.values());
    if (project) rmSync(project, { recursive: true, force: true });
  });

  for (const resolution of ['nodenext', 'bundler'] as const) {
    it(`type-checks a consumer under moduleResolution ${resolution}, skipLibCheck false`, async () => {
      assert.equal(await checks.get(resolution), '');
    });
  }

  it('imports as ESM in Node and ships the <script> build at dist/tabmcp-page.js (the CDN path)', () => {
    const printed = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const sdk = await import('@tabmcp/page'); console.log(typeof sdk.McpWindowProvider)",
      ],
      { cwd: project, encoding: 'utf8' },
    );
    assert.equal(printed.trim(), 'function');
    assert.ok(existsSync(join(project, 'node_modules', '@tabmcp', 'page', 'dist', 'tabmcp-page.js')));
  });
});
