/**
 * `BENCH_QUICK=1`: a smoke run. Each benchmark goes through its whole setup and a few iterations,
 * so a broken rig shows in a minute instead of after a full run; its figures mean nothing, so
 * results go to the temp dir, not bench/results.
 */
export const QUICK = process.env.BENCH_QUICK === '1';

/** `full` iterations in a real run, `few` in a quick one. */
export function iterations(full: number, few: number): number {
  return QUICK ? few : full;
}
