const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** `"90"`, `"90s"`, `"15m"`, `"1h"`, `"7d"`, `"2w"` to seconds; throws on anything else. */
export function parseDurationSeconds(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$/i.exec(text);
  if (!match) throw new Error(`Not a duration: "${text}" (use e.g. 90s, 15m, 1h, 7d)`);
  const value = Number(match[1]) * (UNIT_SECONDS[(match[2] || 's').toLowerCase()] ?? 1);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`Duration must be positive: "${text}"`);
  return Math.round(value);
}
