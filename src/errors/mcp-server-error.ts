import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/**
 * An MCP server started or reached by `mcpServer()` (reagent-flow/mcp) that
 * could not serve: it did not start, it exited, or it did not answer
 * `initialize` in time. The message names the server and says what happened,
 * with its exit code and the last lines of its standard error when it had any.
 */
export class McpServerError extends ReagentError {
  override name = 'McpServerError' as const
  /** The server: its command line (stdio), or its URL (HTTP). */
  readonly server: string
  /** How the server process exited; null when it had not exited or is not a process of ours (HTTP). */
  readonly exitCode: number | null
  /** The last lines of its standard error ('' when it wrote none, or for HTTP). */
  readonly stderr: string

  constructor(message: string, fields: { server: string; exitCode: number | null; stderr: string }) {
    super(message)
    this.server = fields.server
    this.exitCode = fields.exitCode
    this.stderr = fields.stderr
  }
}

/**
 * True for an `McpServerError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isMcpServerError(value: unknown): value is McpServerError {
  return isReagentErrorNamed(value, 'McpServerError')
}
