/**
 * The npm package ships no docs/ folder, so what tabmcp prints cites its docs by URL (issue 28):
 * a path that only exists in a checkout means nothing to someone who ran `npx -y tabmcp`.
 */
const DOCS_BASE = 'https://github.com/tabmcp/tabmcp/blob/main/';

/** The web address of a document of the repository, e.g. the troubleshooting page with a section's anchor. */
export function docsUrl(pathInRepo: string): string {
  return `${DOCS_BASE}${pathInRepo}`;
}
