// Lays out the fetched part of the corpus (issue 37) under corpus/, git-ignored: TodoMVC's apps and
// the W3C ARIA Practices examples, each at the commit test-support/corpus/sources.json pins, taken
// with `git archive` from a mirror of its repository (the search tool's `fetch` made them;
// TABMCP_TODOMVC_MIRROR and TABMCP_ARIA_MIRROR point elsewhere). Their code is never committed
// here. Where a mirror is missing (CI, a new machine) it says so in one line and exits 0: the tests
// skip what is absent. Run it again at any time: it replaces what it laid out before.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = join(root, 'corpus');
const pins = JSON.parse(readFileSync(join(root, 'test-support', 'corpus', 'sources.json'), 'utf8'));

const inside = (path, folder) => path === folder || path.startsWith(`${folder}/`);

const SOURCES = [
  {
    name: 'todomvc',
    ...pins.todomvc,
    // Each app's whole example folder: a dist/ may load files beside it (../node_modules, ../js).
    wanted: () => [...new Set(pins.todomvc.apps.map((app) => app.split('/').slice(0, 2).join('/')))],
    heldOut: (path) => pins.todomvc.heldOut.some((folder) => inside(path, folder)),
  },
  {
    name: 'aria-practices',
    ...pins.ariaPractices,
    // Every pattern's examples folder, with the css, js and images the examples share.
    wanted: (files) => [
      'content/shared',
      'content/images',
      ...files.filter((file) => /^content\/patterns\/[^/]+\/examples\//.test(file)),
    ],
    heldOut: (path) => pins.ariaPractices.heldOut.some((name) => path.split('/').at(-1)?.startsWith(`${name}.`)),
  },
];

function git(mirror, args) {
  const run = spawnSync('git', ['--git-dir', mirror, ...args], { maxBuffer: 512 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${String(run.stderr).trim()}`);
  return run.stdout;
}

/**
 * The files whose content the mirror holds: a snapshot may list its largest files without them
 * (a TypeScript compiler committed in an app's node_modules, never loaded by the page).
 */
function present(mirror, commit, files) {
  const run = spawnSync('git', ['--git-dir', mirror, 'cat-file', '--batch-check'], {
    input: files.map((file) => `${commit}:${file}`).join('\n'),
    maxBuffer: 64 * 1024 * 1024,
  });
  const answers = String(run.stdout).split('\n');
  const kept = files.filter((_, index) => !answers[index]?.endsWith(' missing'));
  if (kept.length < files.length)
    console.log(`corpus: ${files.length - kept.length} files absent from the mirror, left out`);
  return kept;
}

function layOut(source) {
  const mirror = process.env[source.mirrorEnv] ?? source.mirror;
  if (!existsSync(mirror)) {
    console.log(`corpus: no mirror of ${source.repo} at ${mirror} (set ${source.mirrorEnv}); its tasks skip`);
    return;
  }
  const files = String(git(mirror, ['ls-tree', '-r', '--name-only', source.commit]))
    .split('\n')
    .filter(Boolean);
  const folders = source.wanted(files).filter((path) => !source.heldOut(path));
  const wanted = present(
    mirror,
    source.commit,
    files.filter((file) => folders.some((folder) => inside(file, folder)) && !source.heldOut(file)),
  );
  const target = join(corpusDir, source.name);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  const untar = spawnSync('tar', ['-x', '-C', target], {
    input: git(mirror, ['archive', '--format=tar', source.commit, '--', ...wanted]),
  });
  if (untar.status !== 0) throw new Error(`tar failed: ${String(untar.stderr).trim()}`);
  writeFileSync(join(target, 'PINNED'), `${source.repo} ${source.commit}\n`);
  console.log(
    `corpus: ${source.name} laid out from ${source.repo}@${source.commit.slice(0, 12)} in corpus/${source.name}`,
  );
}

for (const source of SOURCES) layOut(source);
