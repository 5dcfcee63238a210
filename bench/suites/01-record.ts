import { Session } from 'reagent-flow'
import type { BenchSuite } from '../run.js'
import { compare, retainedBytes } from '../lib/measure.js'
import { pushInputs, pushTraceShaped, recordTurns, TURNS } from '../lib/workload.js'

export const suite: BenchSuite = {
  name: 'record',
  run() {
    const record = (): Session => {
      const s = new Session('bench', { save: false })
      recordTurns(s)
      return s
    }
    const vsInputs = compare(record, pushInputs)
    const vsShaped = compare(record, pushTraceShaped)
    const heap = retainedBytes(record) / TURNS
    const heapInputs = retainedBytes(pushInputs) / TURNS
    const suiteName = `Recording ${TURNS.toLocaleString('en')} turns (LLM call with one tool call + its result)`
    return [
      {
        suite: suiteName,
        name: 'logLlmCall + logToolResult',
        value: vsShaped.ours.medianMs,
        unit: 'ms',
        baseline: vsShaped.baseline.medianMs,
        baselineName: 'pushing the same turns, built in trace shape',
        target: { max: 2, of: 'ratio' },
      },
      {
        suite: suiteName,
        name: 'logLlmCall + logToolResult',
        value: vsInputs.ours.medianMs,
        unit: 'ms',
        baseline: vsInputs.baseline.medianMs,
        baselineName: 'pushing the input objects as they are',
      },
      { suite: suiteName, name: 'heap per recorded turn', value: heap, unit: 'bytes', baseline: heapInputs, baselineName: 'input objects' },
    ]
  },
}
