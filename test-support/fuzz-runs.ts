/**
 * How many inputs each fuzz parser gets: TABMCP_FUZZ_RUNS (FUZZ_RUNS also works), else the file's default, which
 * keeps each fuzz file within a few seconds in `npm test`. `npm run fuzz` (scripts/fuzz.mjs) sets 100,000.
 */
export function fuzzRuns(quickDefault: number): number {
  const asked = Number(process.env.TABMCP_FUZZ_RUNS ?? process.env.FUZZ_RUNS);
  return Number.isSafeInteger(asked) && asked > 0 ? asked : quickDefault;
}
