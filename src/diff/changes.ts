/**
 * Builds the `TraceChange` records: one place that knows which trace a path
 * points into (expected for removed values, actual otherwise) and how turns,
 * calls and results are shown in a change.
 */
import type { JsonValue } from '../trace/types.js'
import { jsonEqual } from '../trace/json-equal.js'
import { diffArgs, diffValues, type ValueChangeKind } from './compare-values.js'
import type { ChangeSubject, IndexPair, TraceChange } from './types.js'
import { IGNORED, showCall, showTurn, type CallView, type Maybe, type ResultView, type TurnView } from './view.js'

/** `base` + a relative path such as `q`, `[0]` or `a.b` (empty: `base` itself). */
function joinPath(base: string, relative: string): string {
  if (relative === '') return base
  return relative.startsWith('[') ? `${base}${relative}` : `${base}.${relative}`
}

const turnPath = (turn: number): string => `turns[${turn}]`
const callPath = (call: CallView): string => `turns[${call.turn}].llm_call.tool_calls[${call.index}]`
const resultPath = (result: ResultView): string => `turns[${result.turn}].tool_results[${result.index}]`

function known<T>(value: Maybe<T>): T | null {
  return value === IGNORED ? null : value
}

function showResult(result: ResultView): JsonValue {
  return { result: known(result.result), error: known(result.error) }
}

export class ChangeLog {
  readonly list: TraceChange[] = []
  /** Model and system prompt changes reported so far: one that repeats in later turns is reported once, at its first. */
  readonly #reported: Array<{ subject: ChangeSubject; expected: string; actual: string }> = []

  #push(change: TraceChange): void {
    this.list.push(change)
  }

  turn(kind: 'added' | 'removed', view: TurnView, turn: IndexPair): void {
    const shown = showTurn(view)
    this.#push({
      kind,
      subject: 'turn',
      turn,
      path: turnPath(view.index),
      expected: kind === 'removed' ? shown : undefined,
      actual: kind === 'added' ? shown : undefined,
    })
  }

  call(kind: 'added' | 'removed', call: CallView, turn: IndexPair): void {
    const shown = showCall(call)
    this.#push({
      kind,
      subject: 'tool_call',
      turn,
      call: kind === 'removed' ? { expected: call.index, actual: null } : { expected: null, actual: call.index },
      tool: call.name,
      path: callPath(call),
      expected: kind === 'removed' ? shown : undefined,
      actual: kind === 'added' ? shown : undefined,
    })
  }

  /**
   * Arguments (under the tool's rule) and results of two calls taken as the same call.
   * `argsAreSame`: the alignment already found the arguments identical.
   */
  compareCalls(expected: CallView, actual: CallView, turn: IndexPair, argsAreSame = false): void {
    const rule = actual.rule
    const about = (): Pick<TraceChange, 'turn' | 'call' | 'tool'> => ({ turn, call: { expected: expected.index, actual: actual.index }, tool: actual.name })
    const onValue =
      (subject: ChangeSubject, field: string, expectedBase: () => string, actualBase: () => string) =>
      (kind: ValueChangeKind, relative: string, e: JsonValue | undefined, a: JsonValue | undefined): void => {
        const base = `${kind === 'removed' ? expectedBase() : actualBase()}.${field}`
        this.#push({ kind, subject, ...about(), path: joinPath(base, relative), expected: e, actual: a })
      }

    if (!argsAreSame || rule.kind === 'function') {
      diffArgs(
        rule,
        expected.args,
        actual.args,
        onValue(
          'arguments',
          'arguments',
          () => callPath(expected),
          () => callPath(actual),
        ),
      )
    }

    const e = expected.result
    const a = actual.result
    if (e === IGNORED || a === IGNORED || (e === null && a === null)) return
    if (e === null || a === null) {
      const result = (e ?? a)!
      const kind = e === null ? 'added' : 'removed'
      this.#push({
        kind,
        subject: 'tool_result',
        ...about(),
        path: resultPath(result),
        expected: e === null ? undefined : showResult(e),
        actual: a === null ? undefined : showResult(a),
      })
      return
    }
    if (e.result !== IGNORED && a.result !== IGNORED && !jsonEqual(e.result, a.result)) {
      diffValues(
        e.result,
        a.result,
        onValue(
          'result',
          'result',
          () => resultPath(e),
          () => resultPath(a),
        ),
      )
    }
    if (e.error !== IGNORED && a.error !== IGNORED && e.error !== a.error) {
      this.#push({ kind: 'changed', subject: 'error', ...about(), path: `${resultPath(a)}.error`, expected: e.error, actual: a.error })
    }
  }

  /** Results that belong to no call, compared by position. */
  compareStrays(expected: readonly ResultView[], actual: readonly ResultView[], turn: IndexPair): void {
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      const [e, a] = [expected[i], actual[i]]
      if (e !== undefined && a !== undefined) {
        diffValues(showResult(e), showResult(a), (kind, relative, ev, av) =>
          this.#push({ kind, subject: 'tool_result', turn, path: joinPath(resultPath(kind === 'removed' ? e : a), relative), expected: ev, actual: av }),
        )
      } else if (e !== undefined) {
        this.#push({ kind: 'removed', subject: 'tool_result', turn, path: resultPath(e), expected: showResult(e), actual: undefined })
      } else if (a !== undefined) {
        this.#push({ kind: 'added', subject: 'tool_result', turn, path: resultPath(a), expected: undefined, actual: showResult(a) })
      }
    }
  }

  /**
   * What two aligned calls were given: the model name and the system prompt.
   * A side that did not record it (null) is not compared; a change already
   * reported for an earlier turn is not repeated.
   */
  callInputs(expected: TurnView, actual: TurnView, turn: IndexPair): void {
    this.#input('model', expected.model, actual.model, turn, `turns[${actual.index}].llm_call.model`)
    const e = expected.systemPrompt
    const a = actual.systemPrompt
    // No system prompt on one side is an added or removed one (its path: the messages of the call that has it).
    const kind = e === '' ? 'added' : a === '' ? 'removed' : 'changed'
    const holder = kind === 'removed' ? expected : actual
    this.#input('system_prompt', e, a, turn, `turns[${holder.index}].llm_call.messages`, kind)
  }

  #input(subject: ChangeSubject, e: Maybe<string | null>, a: Maybe<string | null>, turn: IndexPair, path: string, kind: TraceChange['kind'] = 'changed'): void {
    if (e === IGNORED || a === IGNORED || e === null || a === null || e === a) return
    if (this.#reported.some((r) => r.subject === subject && r.expected === e && r.actual === a)) return
    this.#reported.push({ subject, expected: e, actual: a })
    this.#push({
      kind,
      subject,
      turn,
      path,
      expected: kind === 'added' ? undefined : e,
      actual: kind === 'removed' ? undefined : a,
    })
  }

  responseText(expected: TurnView | undefined, actual: TurnView | undefined, turn: IndexPair): void {
    const e = expected?.responseText ?? null
    const a = actual?.responseText ?? null
    if (e === IGNORED || a === IGNORED || e === a) return
    const kind = e === null && expected === undefined ? 'added' : a === null && actual === undefined ? 'removed' : 'changed'
    const holder = kind === 'removed' ? expected! : actual!
    this.#push({
      kind,
      subject: 'response_text',
      turn,
      path: `turns[${holder.index}].llm_call.response_text`,
      expected: expected === undefined ? undefined : e,
      actual: actual === undefined ? undefined : a,
    })
  }
}
