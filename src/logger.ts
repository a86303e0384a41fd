// A tiny leveled logger: one line per event, no dependencies. Tests can capture lines via `lines`.
type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, extra?: Record<string, unknown>): void;
  info(msg: string, extra?: Record<string, unknown>): void;
  warn(msg: string, extra?: Record<string, unknown>): void;
  error(msg: string, extra?: Record<string, unknown>): void;
}

export function createLogger(level: Level | 'silent' = 'info', sink?: (line: string) => void): Logger & { lines: string[] } {
  const lines: string[] = [];
  const write = (at: Level, msg: string, extra?: Record<string, unknown>) => {
    const line = `${new Date().toISOString()} ${at.toUpperCase()} ${msg}${extra ? ' ' + JSON.stringify(extra) : ''}`;
    lines.push(line);
    if (lines.length > 500) lines.shift();
    if (ORDER[at] < ORDER[level]) return;
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
