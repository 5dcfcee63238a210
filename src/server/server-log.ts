/**
 * The server's log on stderr: one line per request and one per server event
 * (start, store lost or back, shutdown), as JSON for a log collector or as
 * text for a person at a terminal. What a line may hold is chosen here, by
 * field, never copied from a request: the operation (a name from a fixed
 * set), the method, the status, the duration and the caller's token name.
 * No header, query, path, body or token reaches a line.
 */

export type LogFormat = 'json' | 'text'
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error']
const RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 }

/** A field of a line: scalars only, so nothing nested (a body, a header map) can be logged by mistake. */
type Field = string | number | boolean | null

/** A request answered. */
export interface RequestLine {
  method: string
  /** The route group's name for it (`run.list`, `mcp`, `viewer`, `healthz`), never the raw path. */
  operation: string
  /** Where it went, as the text format shows it: the group's path and the operation (`/v1/run.list`), never the raw path. */
  route: string
  status: number
  durationMs: number
  /** The caller's token name (`local` for a single-user server), or `-` when none was accepted. */
  caller: string
}

export interface ServerLog {
  request(line: RequestLine, level?: LogLevel): void
  /** A server event: `event` names it (`start`, `store_lost`), `message` says it in words, `fields` hold its facts. */
  event(level: LogLevel, event: string, message: string, fields?: Readonly<Record<string, Field>>): void
}

export interface ServerLogOptions {
  format: LogFormat
  level: LogLevel
  /** Where lines go. Default: stderr. */
  write?: (line: string) => void
  now?: () => Date
}

/** `text` when stderr is a terminal, `json` otherwise (a process manager, a container, a file). */
export function defaultLogFormat(stream: { isTTY?: boolean } = process.stderr): LogFormat {
  return stream.isTTY === true ? 'text' : 'json'
}

export function createServerLog(options: ServerLogOptions): ServerLog {
  const write = options.write ?? ((line: string) => void process.stderr.write(`${line}\n`))
  const now = options.now ?? (() => new Date())
  const enabled = (level: LogLevel): boolean => RANK[level] >= RANK[options.level]
  const emit = (level: LogLevel, event: string, text: string, fields: Readonly<Record<string, Field>>): void => {
    const time = now().toISOString()
    write(options.format === 'json' ? JSON.stringify({ time, level, event, ...fields }) : `${time} ${text}`)
  }
  return {
    // 503 is the store away or the server busy (warn: the client tries again); other 5xx are failures.
    request(line, level = line.status === 503 ? 'warn' : line.status >= 500 ? 'error' : 'info') {
      if (!enabled(level)) return
      const duration = Math.round(line.durationMs * 100) / 100
      emit(level, 'request', `${line.method} ${line.route} ${line.status} ${duration.toFixed(1)}ms ${line.caller}`, {
        method: line.method,
        operation: line.operation,
        status: line.status,
        duration_ms: duration,
        caller: line.caller,
      })
    },
    event(level, event, message, fields = {}) {
      if (enabled(level)) emit(level, event, level === 'info' || level === 'debug' ? message : `${level.toUpperCase()} ${message}`, { message, ...fields })
    },
  }
}
