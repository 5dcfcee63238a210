/**
 * A step of a session that is not a tool call of the trace but is answered
 * like one (an MCP server's tool listing): kept in the recording and the
 * journal under `name` with its input, and, with `replayTools` (or in a
 * resumed run), played back from there instead of running `fn`. Nothing of it
 * is recorded in the trace's turns.
 */
import { STEPS } from '../replay/session-feature.js'
import type { Session } from '../session/session.js'
import { internals } from '../session/internals.js'
import { measure } from './trace-tool.js'

/** Runs `fn` (async) as step `name` of session `s` with `input`, or plays it back when the session answers tools from a recording. */
export function runReplayableStep<R>(s: Session, name: string, input: unknown, fn: () => Promise<R>): Promise<R> {
  const answer = s[internals].get(STEPS)?.answerTool(name, input)
  if (answer === undefined) return fn()
  if (answer.kind === 'recorded') return Promise.resolve(answer.run() as R | Promise<R>)
  return measure(fn, (outcome, _durationMs, isAsync) => answer.done(outcome, isAsync))
}
