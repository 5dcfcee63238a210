/**
 * Goldens older than the comparison of model names and system prompts:
 * one whose calls did not record them (a null `model`, null `messages`:
 * reagent-flow 0.5 leaves a call's messages out, a call logged by hand may
 * have neither) is never failed for them, since nothing says what they were.
 * Instead, a run that matches such a golden records them into it (update
 * modes `new` and `all`), so they are compared from then on; under `none`
 * (CI) it passes and nothing is written.
 */
import type { IgnoreRules } from '../diff/options.js'
import type { TraceDiff } from '../diff/types.js'
import type { LlmCall, Trace } from '../trace/types.js'

/** What a run recorded into an older golden, in words. */
export type RecordedInput = 'model' | 'system prompt'

/**
 * `expected` (a golden variant in normal form) with what its calls lack
 * taken from the calls of `actual` they were aligned with in `diff`: the
 * model name, and the messages (so the system prompt, or its absence, is
 * recorded). Undefined when there is nothing to record, or when the options
 * ignore both.
 */
export function withInputsRecorded(
  expected: Trace,
  actual: Trace,
  diff: TraceDiff,
  ignore: IgnoreRules,
): { trace: Trace; recorded: RecordedInput[] } | undefined {
  const recorded = new Set<RecordedInput>()
  const patched = new Map<number, LlmCall>()
  for (const pair of diff.turns) {
    if (pair.expected === null || pair.actual === null) continue
    const golden = expected.turns[pair.expected]?.llm_call
    const run = actual.turns[pair.actual]?.llm_call
    if (golden === undefined || run === undefined) continue
    let call = golden
    if (!ignore.model && golden.model == null && typeof run.model === 'string') {
      call = { ...call, model: run.model }
      recorded.add('model')
    }
    if (!ignore.systemPrompt && golden.messages == null && Array.isArray(run.messages)) {
      call = { ...call, messages: run.messages }
      recorded.add('system prompt')
    }
    if (call !== golden) patched.set(pair.expected, call)
  }
  if (patched.size === 0) return undefined
  const turns = expected.turns.map((turn, at) => {
    const call = patched.get(at)
    return call === undefined ? turn : { ...turn, llm_call: call }
  })
  const order: RecordedInput[] = ['model', 'system prompt']
  return { trace: { ...expected, turns }, recorded: order.filter((input) => recorded.has(input)) }
}
