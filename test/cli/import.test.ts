import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace } from '../../src/entries/index.js'
import { normalizeTrace } from '../../src/entries/golden.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { runCli, runJson, sampleRuns, traceDirWith } from './run-cli.js'

describe('reagent-flow import', () => {
  it('turns exported spans back into the runs they were, children included, written to --dir', () => {
    const cwd = traceDirWith(sampleRuns())
    expect(runCli(['export', 'refund-agent', '--otlp', '--include-content', '--out', 'spans.json'], cwd).code).toBe(0)

    const { code, stdout, stderr } = runCli(['import', 'spans.json', '--dir', 'imported'], cwd)

    expect([code, stderr]).toEqual([0, ''])
    expect(stdout).toBe(
      [
        '2 traces from spans.json (genai spans):',
        `  ${join('imported', 'refund-agent.trace.json')}  refund-agent  3 turns`,
        `  ${join('imported', 'billing-agent.trace.json')}  billing-agent  2 turns  child of trace-refund-agent`,
        '',
      ].join('\n'),
    )
    const [refund, billing] = sampleRuns()
    expect(normalizeTrace(loadTrace(join(cwd, 'imported', 'refund-agent.trace.json')))).toEqual(normalizeTrace(refund!))
    expect(normalizeTrace(loadTrace(join(cwd, 'imported', 'billing-agent.trace.json')))).toEqual(normalizeTrace(billing!))
    expect(runCli(['tree', 'refund-agent', '--dir', 'imported'], cwd).stdout).toContain('└─ billing-agent')
  })

  it("reads a file of OTLP/JSON lines (the Collector's file exporter), reads a span sent twice once, and never overwrites a run it imported itself", () => {
    const cwd = traceDirWith(sampleRuns())
    const again = traceDirWith([buildTrace('search-agent', [{ text: 'found it this time' }], { trace_id: 'trace-search-agent-again', status: 'failed' })])
    const line = runCli(['export', 'search-agent', '--otlp'], cwd).stdout
    const otherRun = runCli(['export', 'search-agent', '--otlp'], again).stdout
    writeFileSync(join(cwd, 'lines.json'), `${line}\n${line}${otherRun}`)

    const { code, json } = runJson<{ dialect: string; traces: Array<{ file: string; name: string }> }>(['import', 'lines.json', '--dir', 'imported'], cwd)

    expect(code).toBe(0)
    expect(json.dialect).toBe('genai')
    expect(json.traces.map((trace) => [trace.file, trace.name])).toEqual([
      [join('imported', 'search-agent.trace.json'), 'search-agent'],
      [join('imported', 'search-agent-2.trace.json'), 'search-agent'],
    ])
    // In the order the runs started.
    expect(['search-agent.trace.json', 'search-agent-2.trace.json'].map((file) => loadTrace(join(cwd, 'imported', file)).trace_id)).toEqual([
      'trace-search-agent-again',
      'trace-search-agent',
    ])
  })

  it('says what is wrong with a file that is not OTLP/JSON, with exit 2, and lists the dialects', () => {
    const cwd = traceDirWith(sampleRuns())
    writeFileSync(join(cwd, 'trace.json'), readFileSync(join(cwd, '.reagent', 'refund-agent.trace.json')))
    writeFileSync(join(cwd, 'broken.json'), '{"resourceSpans": [\n{"scopeSpans": 3}]}\nnot json')
    expect(runCli(['import', 'trace.json'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'reagent-flow import: trace.json: not an OTLP/JSON trace export: expected an object with a "resourceSpans" array (what an OTLP/HTTP exporter sends, or the Collector\'s file exporter writes)\n',
    })
    expect(runCli(['import', 'broken.json'], cwd).stderr).toMatch(
      /^reagent-flow import: broken\.json at line 1: not JSON \(.*\); expected OTLP\/JSON, one request per file or per line\n$/,
    )
    expect(runCli(['import', 'missing.json'], cwd).stderr).toBe('reagent-flow import: missing.json is not a file; pass the path of an OTLP/JSON span file\n')
    expect(runCli(['import', 'trace.json', '--dialect', 'langfuse'], cwd).stderr).toBe(
      'reagent-flow import: --dialect must be one of auto, genai, openinference, openllmetry; got "langfuse"\n',
    )
  })
})
