import { writeSync } from 'node:fs';

/** A small structured logger: one JSON line per entry on stderr, filtered by level. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * Writes lines to stderr, those of one turn of the event loop in one write: a server under load logs one line per
 * request, and a write to a pipe is a system call (synchronous in Node), which on these machines cost as much as a
 * small request's own work. Lines still pending when the process exits are written then, so none is lost to
 * `process.exit`.
 *
 * @example const log = createLogger('info', batchedStderr());
 */
export function batchedStderr(): (line: string) => void {
  let pending: string[] = [];
  const flush = () => {
    if (!pending.length) return;
    const text = pending.join('');
    pending = [];
    process.stderr.write(text);
  };
  process.on('exit', () => {
    if (pending.length) writeSync(2, pending.join(''));
    pending = [];
  });
  return (line) => {
    if (!pending.length) setImmediate(flush);
    pending.push(`${line}\n`);
  };
}

export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Logger {
  const at = (lvl: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] >= ORDER[level]) write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }));
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** For tests and tools that want silence. */
export const silentLogger: Logger = createLogger('error', () => undefined);
