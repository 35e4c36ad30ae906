// Issue 37, "role and name as Chromium computes them": every control tabmcp's page model finds on the corpus's
// pages, its accessible name beside the one Chromium's accessibility tree gives the same element
// (CDP Accessibility.getFullAXTree, matched by backend node id). A control Chromium names and tabmcp names
// otherwise is a finding, listed by page; where tabmcp names what Chromium leaves nameless (a checkbox by its row)
// or shortens a name on purpose (a caption that carries its state, a long name cut at 80 characters), it is
// counted apart, not as a finding.
// Run: node scripts/corpus-layout.mjs && npx tsx bench/names-vs-chromium.ts   (NAMES_PAGES=treeview,todomvc/vue filters)
// Writes bench/results/names-vs-chromium.json.
import { chromium } from 'playwright-core';
import { buildCorpusLibraries } from '../examples/corpus-libs/build';
import { chromiumArgs } from '../packages/server/src/launcher/chromium-args';
import { available, corpusTasks } from '../test-support/corpus/catalog';
import { startCorpusSite } from '../test-support/corpus/serve';
import { type NamePair, namesOnPage, sameRole, verdictOf } from '../test-support/names-vs-chromium';
import { QUICK } from './lib/quick';
import { type Figure, machine, writeResult } from './lib/results';

const filters = process.env.NAMES_PAGES?.split(',').filter(Boolean);

await buildCorpusLibraries();
const site = await startCorpusSite();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs() });
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const pages = [
  ...new Map(
    Object.entries(corpusTasks)
      .filter(([source]) => available[source as keyof typeof available])
      .flatMap(([, tasks]) => tasks.map((task) => [task.path, task] as const)),
  ).values(),
]
  .filter((task) => !filters || filters.some((filter) => task.id.includes(filter)))
  .slice(0, QUICK ? 3 : undefined);

const counts = { same: 0, oursOnly: 0, shortened: 0, decoration: 0, notInTree: 0, differs: 0 };
const findings: Array<{ page: string } & NamePair> = [];
const roleFindings: Array<{ page: string } & NamePair> = [];
/** Every pair whose names are not the same, by verdict: what "oursOnly", "shortened" and "decoration" hold. */
const apart: Record<string, Array<{ page: string } & NamePair>> = {};
try {
  for (const task of pages) {
    const page = await context.newPage();
    try {
      await page.goto(`${site.url}${task.path}`, { waitUntil: 'networkidle', timeout: 20_000 });
      // A TodoMVC app shows its rows' controls only once it has todos, as a person adding them sees.
      if (task.source === 'todomvc')
        for (const todo of ['Buy milk', 'Walk the dog']) {
          const box = page.getByPlaceholder('What needs to be done?').first();
          await box.fill(todo);
          await box.press('Enter');
        }
      for (const pair of await namesOnPage(page)) {
        if (!sameRole(pair)) roleFindings.push({ page: task.path, ...pair });
        const verdict = verdictOf(pair);
        counts[verdict] += 1;
        if (verdict === 'differs') findings.push({ page: task.path, ...pair });
        else if (verdict !== 'same') {
          apart[verdict] = apart[verdict] ?? [];
          apart[verdict].push({ page: task.path, ...pair });
        }
      }
    } catch (error) {
      console.error(`${task.path}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    } finally {
      await page.close();
    }
  }
} finally {
  await browser.close();
  await site.close();
}

for (const finding of roleFindings)
  console.log(`${finding.page}\n  role: ours ${finding.role} · Chromium ${finding.chromiumRole}\n  ${finding.tag}`);
for (const finding of findings)
  console.log(
    `${finding.page}\n  ${finding.role} ours ${JSON.stringify(finding.ours)} · Chromium ${JSON.stringify(finding.chromium)}\n  ${finding.tag}`,
  );
const controls = Object.values(counts).reduce((sum, count) => sum + count, 0);
console.log(
  `${pages.length} pages, ${controls} controls: same name ${counts.same}, named only by tabmcp ${counts.oursOnly}, shortened ${counts.shortened}, drawn glyphs or spacing ${counts.decoration}, not in Chromium's tree ${counts.notInTree}, different ${counts.differs} (floor 0); roles different ${roleFindings.length} (floor 0)`,
);
const figures: Figure[] = [
  {
    name: "Corpus controls whose name differs from Chromium's",
    value: counts.differs,
    unit: 'controls',
    beside: { label: 'controls compared', value: controls },
    bar: '0',
    pass: counts.differs === 0 && roleFindings.length === 0,
    meaning: `${pages.length} pages; roles other than Chromium's: ${roleFindings.length}; ${counts.same} named exactly as Chromium does, ${counts.oursOnly} named by tabmcp where Chromium gives none, ${counts.shortened} shortened, ${counts.decoration} differing only in drawn glyphs or spacing.`,
  },
];
const file = writeResult('names-vs-chromium', {
  name: 'names-vs-chromium',
  meaning:
    "Each visible control tabmcp finds on the corpus's pages, its accessible name beside Chromium's for the same element (Accessibility.getFullAXTree). 'differs' are findings; 'oursOnly' are controls Chromium leaves nameless that tabmcp names by what a person reads beside them; 'shortened' are names tabmcp cuts (80 characters) or whose state it leaves out; 'decoration' have the same letters and digits, Chromium adding what CSS draws.",
  machine: machine(),
  pages: pages.length,
  counts,
  findings,
  roleFindings,
  apart,
  figures,
});
console.log(`wrote ${file}`);
