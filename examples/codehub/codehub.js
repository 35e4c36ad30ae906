// CodeHub: a repository page that publishes its actions as tools with the tabmcp page SDK.
const repo = { owner: 'anthropics', name: 'claude-code', stars: 41200, starred: false, watching: false, forks: 3100 };
const issues = [
  { number: 12, title: 'Support list_changed in more clients', open: true },
  { number: 9, title: 'Document pairing', open: false },
];

function render() {
  document.getElementById('stars').textContent = String(repo.stars);
  document.getElementById('starred').textContent = repo.starred ? 'starred by you' : 'not starred';
}

const site = new TabMcp.McpWindowProvider({ name: 'codehub', version: '1.0.0' });
const noInput = { type: 'object', properties: {} };
site.addTool({ name: 'star_repo', description: `Star ${repo.owner}/${repo.name}`, inputSchema: noInput }, () => {
  if (!repo.starred) repo.stars += 1;
  repo.starred = true;
  render();
  return { starred: true, stars: repo.stars };
});
site.addTool({ name: 'watch_repo', description: 'Watch the repository', inputSchema: noInput }, () => {
  repo.watching = true;
  return { watching: true };
});
site.addTool({ name: 'fork_repo', description: 'Fork the repository', inputSchema: noInput }, () => {
  repo.forks += 1;
  return { forked: `you/${repo.name}`, forks: repo.forks };
});
site.addTool(
  {
    name: 'view_issues',
    description: 'List the issues',
    inputSchema: { type: 'object', properties: { state: { type: 'string', enum: ['open', 'closed', 'all'] } } },
    annotations: { readOnlyHint: true },
  },
  ({ state = 'open' }) => ({ issues: issues.filter((i) => state === 'all' || i.open === (state === 'open')) }),
);
site.addTool(
  {
    name: 'run_checks',
    description: 'Run the repository checks; they take `ms` milliseconds',
    inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0, maximum: 60000 } } },
  },
  ({ ms = 1000 }) => {
    document.getElementById('checks').textContent = 'checks running';
    return new Promise((resolve) =>
      setTimeout(() => {
        document.getElementById('checks').textContent = 'checks passed';
        resolve({ passed: true, ms });
      }, ms),
    );
  },
);
site.exposeOnWindow();
TabMcp.serveTab(site);
