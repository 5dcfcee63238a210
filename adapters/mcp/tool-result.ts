/**
 * An MCP tool that answers `isError: true` failed, though the call returned:
 * the trace records it as the call's error (its text), and the caller still
 * gets the result the server sent. Inside the call lifecycle it travels as an
 * error, so a recording keeps it as the tool's error too; played back, the
 * caller gets the result made again from its text.
 */

/** The name a failed result travels under, in a recording as in the trace ("McpToolError: Order 9 not found."). */
const FAILED_RESULT = 'McpToolError'

interface ToolResultLike {
  isError?: unknown
  content?: unknown
}

/** The text parts of a result's `content`, joined by newlines. */
function textOf(result: ToolResultLike): string {
  if (!Array.isArray(result.content)) return ''
  return result.content
    .flatMap((part: { type?: unknown; text?: unknown }) => (part?.type === 'text' && typeof part.text === 'string' ? [part.text] : []))
    .join('\n')
}

/**
 * Carries a failed result through the lifecycle; never reaches the caller
 * (`resultOfFailure` turns it back into the result), so it is not one of the
 * package's errors.
 */
class FailedResult extends Error {
  override name = FAILED_RESULT
  readonly result: unknown

  constructor(result: ToolResultLike) {
    super(textOf(result))
    this.result = result
  }
}

/** The result, or a FailedResult to throw when the server said the tool failed. */
export function throwIfFailed<R>(result: R): R {
  if (result !== null && typeof result === 'object' && (result as ToolResultLike).isError === true) throw new FailedResult(result as ToolResultLike)
  return result
}

/** The result a failed result stood for (live, or played back from a recording as its text); undefined for any other error. */
export function resultOfFailure(error: unknown): unknown {
  if (error instanceof FailedResult) return error.result
  if (error instanceof Error && error.name === FAILED_RESULT) return { content: [{ type: 'text', text: error.message }], isError: true }
  return undefined
}
