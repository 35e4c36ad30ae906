// Issue 37's bar "the same page gives the same tool list in 20 of 20 fresh loads, on 10 corpus
// pages": each page opened LOADS times in a fresh tab through tabmcp, the tool names open_tab
// answers with (the list an agent sees first) compared. The npm pages run everywhere; the TodoMVC
// apps (RequireJS ones among them: they render after their load event) and ARIA Practices examples
// where scripts/corpus-layout.mjs laid them out. Run: node scripts/corpus-layout.mjs && npx tsx bench/fresh-loads.ts
// Writes bench/results/fresh-loads.json.
import { buildCorpusLibraries } from '../examples/corpus-libs/build';
import { available, missingSources } from '../test-support/corpus/catalog';
import { startCorpusSite } from '../test-support/corpus/serve';
import { describeFreshLoads, type FreshLoads, freshLoads } from '../test-support/fresh-loads';
import { type Agent, newMachine, startAgent } from '../test-support/server-harness';
import { waitFor } from '../test-support/wait';
import { iterations } from './lib/quick';
import { machine, writeResult } from './lib/results';

const LOADS = iterations(20, 2);
const PAGES = [
  '/corpus-libs/naive-ui.html',
  '/corpus-libs/angular-material.html',
  '/corpus-libs/bits-ui.html',
  '/corpus-libs/react-virtuoso.html',
  ...(available.todomvc
    ? [
        '/examples/backbone_require/index.html',
        '/examples/lavaca_require/index.html',
        '/examples/knockoutjs_require/index.html',
        '/examples/vue/dist/index.html',
      ]
    : []),
  ...(available['aria-practices']
    ? [
        '/content/patterns/tabs/examples/tabs-automatic.html',
        '/content/patterns/disclosure/examples/disclosure-faq.html',
      ]
    : []),
];

for (const line of missingSources()) console.log(line);
await buildCorpusLibraries();
const site = await startCorpusSite();
const home = await newMachine();
const agent: Agent = await startAgent(home, ['--launch']);
const results: FreshLoads[] = [];
try {
  await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  for (const path of PAGES) {
    const result = await freshLoads(agent, `${site.url}${path}`, LOADS);
    results.push({ ...result, url: path });
    console.log(describeFreshLoads(result, path));
  }
} finally {
  await agent.close();
  home.close();
  await site.close();
}
const stable = results.filter((result) => result.identical === result.loads).length;
console.log(
  `pages with one list at every load: ${stable} of ${results.length} (bar: 10 of 10, ${LOADS} of ${LOADS} loads each)`,
);
console.log(`wrote ${writeResult('fresh-loads', { machine: machine(), loads: LOADS, stable, pages: results })}`);
