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

function isAnswer(answer: unknown): answer is ScriptedToolAnswer {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return false
  const keys = Object.keys(answer)
  return keys.length === 1 && (keys[0] === 'result' || (keys[0] === 'error' && typeof (answer as { error: unknown }).error === 'string'))
}

/** A script that is not one is refused where it is written, naming the tool and the answer, as the scripted models refuse theirs. */
function checkScript(script: unknown): asserts script is Readonly<Record<string, readonly ScriptedToolAnswer[]>> {
  if (script === null || typeof script !== 'object' || Array.isArray(script)) {
    throw new TypeError(
      `scriptedTools: the script must be an object of tool names to their answers, got ${Array.isArray(script) ? 'an array' : String(script)}.`,
    )
  }
  for (const [name, answers] of Object.entries(script)) {
    if (!Array.isArray(answers)) throw new TypeError(`scriptedTools: the answers of tool "${name}" must be an array, got ${JSON.stringify(answers)}.`)
    const bad = answers.findIndex((answer) => !isAnswer(answer))
    if (bad !== -1) {
      throw new TypeError(
        `scriptedTools: answer ${bad + 1} of tool "${name}" is ${JSON.stringify(answers[bad])}, not { result: <value> } or { error: '<message>' }.`,
      )
    }
  }
}

/** Each tool of `script` as an async function answering its calls in order; a call past its answers is a `ToolScriptExhaustedError`. */
export function scriptedTools(script: Readonly<Record<string, readonly ScriptedToolAnswer[]>>): ScriptedTools {
  checkScript(script)
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
