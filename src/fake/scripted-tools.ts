/**
 * `scriptedTools({ lookup_order: [{ result: { amount: 19.99 } }] })`: tools
 * that answer from a script instead of touching a real system. Each tool
 * answers its calls in order with the next of its answers (a result, or an
 * error it throws), whatever the arguments: the test's golden and flow
 * assertions say whether the agent called it as it should.
 * `reagent-flow scaffold` writes one with a run's recorded results.
 */
import { ToolScriptExhaustedError } from './errors.js'

/** One answer of a scripted tool: the value it returns, or the message of the error it throws. */
export type ScriptedToolAnswer = { result: unknown } | { error: string }

/** A tool per name, each answering its calls from its list. */
export type ScriptedTools = Readonly<Record<string, (args?: unknown) => Promise<unknown>>>

/** Each tool of `script` as an async function answering its calls in order; a call past its answers is a `ToolScriptExhaustedError`. */
export function scriptedTools(script: Readonly<Record<string, readonly ScriptedToolAnswer[]>>): ScriptedTools {
  const tools: Record<string, (args?: unknown) => Promise<unknown>> = {}
  for (const [name, answers] of Object.entries(script)) {
    let calls = 0
    tools[name] = async () => {
      const answer = answers[calls++]
      if (answer === undefined) throw new ToolScriptExhaustedError(name, calls, answers.length)
      if ('error' in answer) throw new Error(answer.error)
      return answer.result
    }
  }
  return Object.freeze(tools)
}
