export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

// Belt and braces: no caller should pass a credential, but if one does it never reaches the log.
const SECRET_FIELD = /token|secret|authorization|password/i;

export interface JsonLoggerOptions {
  level?: LogLevel;
  /** Fields stamped on every line, e.g. the instance id. */
  base?: LogFields;
  write?: (line: string) => void;
}

/** One JSON object per line on stderr: `{"time","level","event",...fields}`. */
export function createJsonLogger(options: JsonLoggerOptions = {}): Logger {
  const threshold = RANK[options.level ?? 'info'];
  const base = options.base ?? {};
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const log = (level: Exclude<LogLevel, 'silent'>, event: string, fields?: LogFields) => {
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

export const silentLogger: Logger = createJsonLogger({ level: 'silent' });
