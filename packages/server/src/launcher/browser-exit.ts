import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { docsUrl } from '../docs-links';

/** How many kept browser logs stay in $TABMCP_HOME/logs: the newest few are what anyone reads. */
const KEPT_LOGS = 5;
/** How much of a browser's own output its exit report quotes. */
const QUOTED_LINES = 5;
const EARLY_EXIT_HELP = docsUrl('docs/troubleshooting.md#the-launched-browser-exits-at-once');

export interface BrowserExitFacts {
  executable: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds between spawn and exit. */
  livedMs: number;
  /** The browser's own output (stdout and stderr), in its profile, which goes with the profile. */
  logFile: string;
  /** Where logs are kept once the browser is gone ($TABMCP_HOME/logs). */
  keptLogDir: string;
}

export interface BrowserExitReport {
  /** What the agent and the log read: cause, last output, kept log and next step. */
  message: string;
  keptLog: string | undefined;
  lastLines: string[];
}

/** The last non-empty lines of the browser's output: what it said before it died. */
function lastLines(logFile: string): string[] {
  try {
    const lines = readFileSync(logFile, 'utf8').split('\n');
    return lines
      .map((line) => line.trim())
      .filter(Boolean)
      .slice(-QUOTED_LINES);
  } catch {
    return [];
  }
}

/**
 * Copies the browser's log out of its profile (which the watchdog removes with the browser) into
 * $TABMCP_HOME/logs, and drops the oldest kept logs beyond KEPT_LOGS. Undefined when it cannot.
 */
function keepLog(logFile: string, keptLogDir: string): string | undefined {
  try {
    mkdirSync(keptLogDir, { recursive: true, mode: 0o700 });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const kept = join(keptLogDir, `chromium-${stamp}-${process.pid}.log`);
    copyFileSync(logFile, kept);
    // ISO stamps sort by time as text.
    const old = readdirSync(keptLogDir)
      .filter((name) => name.startsWith('chromium-') && name.endsWith('.log'))
      .sort()
      .slice(0, -KEPT_LOGS);
    for (const name of old) rmSync(join(keptLogDir, name), { force: true });
    return kept;
  } catch {
    return undefined;
  }
}

/** Reports a browser process that ended without tabmcp stopping it, keeping its log. */
export function reportBrowserExit(facts: BrowserExitFacts): BrowserExitReport {
  const lines = lastLines(facts.logFile);
  const keptLog = keepLog(facts.logFile, facts.keptLogDir);
  const how = facts.signal ? `was killed by ${facts.signal}` : `exited with code ${facts.code}`;
  const said = lines.length > 0 ? ` Its last output: ${lines.map((line) => JSON.stringify(line)).join(' ')}.` : '';
  const log = keptLog ? ` Its whole log is kept at ${keptLog}.` : '';
  const message =
    `The browser ${facts.executable} ${how} ${Math.round(facts.livedMs)} ms after it started.${said}${log} ` +
    `Next step: read that output; try --headless, or another browser with --browser PATH (${EARLY_EXIT_HELP}).`;
  return { message, keptLog, lastLines: lines };
}
