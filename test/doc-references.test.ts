import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Citation, citationsIn, headingSlugs, sectionHeadings } from '../test-support/doc-citations';

/**
 * Every document the repository cites must be in the repository: a newcomer who clones it can read
 * each one. Cited anchors (`user-guide.md#pairing`) and sections (`requirements.md "Tool updates"`,
 * `the README, "Use your own Chrome"`) must exist too, in comments, docs and the texts agents read.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// .tmp is git-ignored scratch (the unit test bundles, scripts/unit-bundles.mjs): not in what a newcomer clones.
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git', 'results', '.tmp']);
/** This check and its parser quote citations that must not resolve. */
const SELF = [fileURLToPath(import.meta.url), join(root, 'test-support', 'doc-citations.ts')];
const SCANNED = new Set(['.ts', '.tsx', '.mts', '.mjs', '.js', '.md', '.html', '.yml', '.sh']);

function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (SKIPPED_FOLDERS.has(entry)) continue;
    const path = join(dir, entry);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats?.isDirectory()) found.push(...filesUnder(path));
    else if (stats && (SCANNED.has(extname(entry)) || entry === 'run')) found.push(path);
  }
  return found;
}

/**
 * A file's text, or undefined if it went away since the listing: test files run side by side, and
 * test/boundaries.test.ts writes and removes probe files in packages' src folders while this scans.
 */
function textOf(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Where a cited name may live: beside the citing file, at the root, or in docs/. */
function locate(citation: Citation, from: string): string | undefined {
  const candidates = citation.path.startsWith('.')
    ? [resolve(dirname(from), citation.path)]
    : [resolve(dirname(from), citation.path), resolve(root, citation.path), resolve(root, 'docs', citation.path)];
  return candidates.find((path) => existsSync(path));
}

function problemsIn(file: string, text = textOf(file)): string[] {
  const problems: string[] = [];
  if (text === undefined) return problems;
  for (const citation of citationsIn(text)) {
    const where = `${relative(root, file)}:${citation.line}`;
    const target = locate(citation, file);
    if (!target) {
      problems.push(`${where} cites ${citation.path}, which is not in the repository`);
      continue;
    }
    const text = readFileSync(target, 'utf8');
    if (citation.anchor && !headingSlugs(text).has(citation.anchor)) {
      problems.push(`${where} cites ${citation.path}#${citation.anchor}, which has no such heading`);
    }
    if (citation.section) {
      const wanted = citation.section.toLowerCase();
      if (!sectionHeadings(text).some((heading) => heading.includes(wanted))) {
        problems.push(`${where} cites ${citation.path} "${citation.section}", which has no such section`);
      }
    }
  }
  return problems;
}

describe('documents the repository cites', () => {
  it('exist, with every cited anchor and section', () => {
    const problems = filesUnder(root)
      .filter((file) => !SELF.includes(file))
      .flatMap((file) => problemsIn(file));
    assert.deepEqual(problems, [], `cited but missing:\n${problems.join('\n')}`);
  });

  it('are found in the forms the code uses (the check itself can fail)', () => {
    const sample = [
      'see docs/user-guide.md#no-such-anchor',
      'mcp-b.md "Tool Updates"',
      '(see the README, "A section nobody wrote")',
      'requirements.md, "Edge cases"',
      'https://example.com/elsewhere.md is a link, not a citation',
    ].join('\n');
    assert.deepEqual(
      citationsIn(sample).map(({ path, anchor, section }) => [path, anchor, section]),
      [
        ['docs/user-guide.md', 'no-such-anchor', undefined],
        ['mcp-b.md', undefined, 'Tool Updates'],
        ['README.md', undefined, 'A section nobody wrote'],
        ['requirements.md', undefined, 'Edge cases'],
      ],
    );
    const reported = problemsIn(join(root, 'docs', 'sample.md'), sample);
    assert.equal(reported.length, 3, reported.join('\n'));
    assert.match(reported[0], /no such heading/);
    assert.match(reported[1], /mcp-b\.md, which is not in the repository/);
    assert.match(reported[2], /no such section/);
  });
});
