/**
 * Whose golden a trace's is. A run's own, as a rule; a run of a run set
 * (`repeat(k, name, ...)`, its `repeat` field) shares the run set's golden,
 * so the k repetitions of one agent are compared with one golden and its
 * accepted variants, not each with a golden of its own.
 */
import { repeatOf } from '../trace/repeat-field.js'
import type { TraceIdentity } from '../storage/index.js'
import type { Trace } from '../trace/types.js'

/** The identity a trace's golden is filed under: the run set's for a repeated run, else the trace's own. */
export function goldenIdentity(trace: TraceIdentity): TraceIdentity {
  const repeat = repeatOf(trace)
  if (repeat === undefined) return trace
  const key = typeof repeat.test_key === 'string' && repeat.test_key !== '' ? repeat.test_key : undefined
  return { name: repeat.name, test_file: trace.test_file, test_key: key ?? (typeof trace.test_key === 'string' ? repeat.name : trace.test_key) }
}

/** The trace's own fields, as its golden holds them: a repeated run named as its run set, without the `repeat` field. */
export function asGoldenIdentity(trace: Trace): Trace {
  const repeat = repeatOf(trace)
  if (repeat === undefined) {
    if (!('repeat' in trace)) return trace
    const { repeat: _dropped, ...rest } = trace
    return rest as Trace
  }
  const { repeat: _repeat, ...rest } = trace
  const identity = goldenIdentity(trace)
  const out = { ...rest, name: identity.name } as Trace
  if (typeof trace.test_key === 'string') out.test_key = identity.test_key
  return out
}
