import type { LogDetails, Logger } from '@tabmcp/protocol';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** The proxy filters by level (`--log-level`): one protocol `Logger` per level. */
export interface LeveledLogger {
  debug: Logger;
  info: Logger;
  warn: Logger;
  error: Logger;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

// Belt and braces: no caller should pass a credential, but if one does it never reaches the log.
const SECRET_FIELD = /token|secret|authorization|password/i;

export interface JsonLoggerOptions {
  level?: LogLevel;
  /** Fields stamped on every line, e.g. the instance id. */
  base?: LogDetails;
  write?: (line: string) => void;
}

/** One JSON object per line on stderr: `{"time","level","event",...fields}`. */
export function createJsonLogger(options: JsonLoggerOptions = {}): LeveledLogger {
  const threshold = RANK[options.level ?? 'info'];
  const base = options.base ?? {};
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const log = (level: Exclude<LogLevel, 'silent'>, event: string, fields?: LogDetails) => {
    if (RANK[level] < threshold) return;
    const record: Record<string, unknown> = { time: new Date().toISOString(), level, event, ...base };
    if (fields) {
      for (const [key, value] of Object.entries(fields)) {
        if (value !== undefined) record[key] = SECRET_FIELD.test(key) ? '[redacted]' : value;
      }
    }
    write(`${JSON.stringify(record)}\n`);
  };
  return {
    debug: (event, fields) => log('debug', event, fields),
    info: (event, fields) => log('info', event, fields),
    warn: (event, fields) => log('warn', event, fields),
    error: (event, fields) => log('error', event, fields),
  };
}

export const silentLogger: LeveledLogger = createJsonLogger({ level: 'silent' });
