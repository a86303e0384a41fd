import { sourceMappedStack } from './ops/source-stack.ts';

// A small leveled logger with no package dependencies: one line per event. In production (LOG_FORMAT=json, the
// default there) each line is a JSON object a log shipper can index: {"time","level","msg",...extra};
// in development it is a readable text line. Tests can capture lines via `lines` (all of them when the
// level is 'silent', else the recent lines at or above the level).
type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type LogFormat = 'json' | 'text';

export interface Logger {
  debug(msg: string, extra?: Record<string, unknown>): void;
  info(msg: string, extra?: Record<string, unknown>): void;
  warn(msg: string, extra?: Record<string, unknown>): void;
  error(msg: string, extra?: Record<string, unknown>): void;
}

export interface LoggerOptions {
  format?: LogFormat;
}

const RESERVED = new Set(['time', 'level', 'msg']);

/** Errors serialise to {} by default; keep their message and stack (in src/ terms: source-stack.ts). */
function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Error)
    return {
      name: value.name,
      message: value.message,
      stack: value.stack === undefined ? undefined : sourceMappedStack(value.stack),
    };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function formatLine(format: LogFormat, at: Level, msg: string, extra?: Record<string, unknown>): string {
  const time = new Date().toISOString();
  if (format === 'text')
    return `${time} ${at.toUpperCase()} ${msg}${extra ? ' ' + JSON.stringify(extra, replacer) : ''}`;
  const record: Record<string, unknown> = { time, level: at, msg };
  if (extra) for (const [k, v] of Object.entries(extra)) record[RESERVED.has(k) ? `extra_${k}` : k] = v;
  try {
    return JSON.stringify(record, replacer);
  } catch {
    // A circular value must not lose the line.
    return JSON.stringify({ time, level: at, msg, extra: 'unserialisable (circular?)' });
  }
}

export function createLogger(
  level: Level | 'silent' = 'info',
  sink?: (line: string) => void,
  options: LoggerOptions = {},
): Logger & { lines: string[] } {
  const format = options.format ?? 'text';
  const lines: string[] = [];
  const write = (at: Level, msg: string, extra?: Record<string, unknown>) => {
    const shown = ORDER[at] >= ORDER[level];
    // A 'silent' logger (tests) still keeps every line in `lines`; otherwise lines below the level
    // are not even formatted, so debug calls on hot paths cost next to nothing in production.
    if (!shown && level !== 'silent') return;
    const line = formatLine(format, at, msg, extra);
    lines.push(line);
    if (lines.length > 500) lines.shift();
    if (!shown) return;
    if (sink) sink(line);
    else if (at === 'error' || at === 'warn') console.error(line);
    else console.log(line);
  };
  return {
    lines,
    debug: (m, e) => write('debug', m, e),
    info: (m, e) => write('info', m, e),
    warn: (m, e) => write('warn', m, e),
    error: (m, e) => write('error', m, e),
  };
}

/** A logger that adds `fields` (e.g. { requestId }) to every line it writes. */
export function childLogger(parent: Logger, fields: Record<string, unknown>): Logger {
  const merge = (extra?: Record<string, unknown>) => (extra ? { ...fields, ...extra } : fields);
  return {
    debug: (m, e) => parent.debug(m, merge(e)),
    info: (m, e) => parent.info(m, merge(e)),
    warn: (m, e) => parent.warn(m, merge(e)),
    error: (m, e) => parent.error(m, merge(e)),
  };
}
