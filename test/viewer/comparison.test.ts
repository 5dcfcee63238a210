/**
 * The comparison with a baseline as the report embeds it and the viewer's
 * server answers it: one payload, built from results files as the reporter
 * writes them, and `--results`/`--baseline` of `report` and `view`.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compareResults } from '../../src/results/compare-results.js'
import { comparisonPayload } from '../../src/viewer/comparison-payload.js'
import { buildReport } from '../../src/viewer/report.js'
import { runCli } from '../cli/run-cli.js'
import { tempDir } from '../helpers/temp-dir.js'
import { ANSWERS, FILE, REFUNDS, writeRegression, writeSide } from './comparison-results.js'
import { writeViewerDir } from './viewer-dir.js'
import { startViewer } from './viewer-server.js'

const HOSTILE_NAME = '</script><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'

const run = (passed: boolean, tokens: number) => ({ passed, tokens })

/** Three runs of the refund test a side (all passing, then one of three), one of the other, and a test each side alone ran. */
function writeSmall(dir: string): { baseline: string; current: string; quarantine: string } {
  const quarantine = join(dir, 'quarantine.json')
  writeFileSync(
    quarantine,
    JSON.stringify({
      tests: [
        { test: `${FILE} > ${ANSWERS}`, reason: 'the sandbox times out (#12)', date: '2026-12-01' },
        { test: `${FILE} > renamed long ago`, reason: 'gone', date: '2026-11-30' },
      ],
    }),
  )
  return {
    baseline: writeSide(dir, 'main', 'aaa111', {
      [ANSWERS]: [run(true, 50)],
      [REFUNDS]: [run(true, 100), run(true, 110), run(true, 120)],
      'old test': [run(true, 10)],
    }),
    current: writeSide(dir, 'branch', 'bbb222', {
      [ANSWERS]: [run(true, 50)],
      [REFUNDS]: [run(true, 200), run(false, 210), run(false, 220)],
      'new test': [run(false, 10)],
    }),
    quarantine,
  }
}

/** A numeric figure that no run moved: the same value on both sides, too few runs to say anything. */
const steady = (figure: 'turns' | 'tool_calls' | 'tokens', value: number, n: number, needs: number) => ({
  figure,
  test: 'mann-whitney-u-asymptotic',
  baseline: { median: value, n },
  current: { median: value, n },
  effect: 0,
  p: 1,
  confidence: 0.95,
  verdict: 'unchanged',
  reason: 'too few runs',
  adjustedP: 1,
  needs: { baseline: needs, current: needs },
  verdict_text: `unchanged (too few runs: needs ${needs} per side)`,
})

describe('the comparison payload', () => {
  it('holds each compared test with its figures, their verdicts in words, and both sides’ runs (figures only); then the lists', () => {
    const dir = tempDir()
    const { baseline, current, quarantine } = writeSmall(dir)
    const payload = comparisonPayload(compareResults(baseline, current, { quarantine }))
    expect(JSON.parse(JSON.stringify(payload))).toEqual({
      baseline: { path: baseline, files: 1 },
      current: { path: current, files: 1 },
      confidence: 0.95,
      correction: 'benjamini-hochberg',
      tests: [
        {
          id: `${FILE} > ${REFUNDS}`,
          verdict: 'unchanged',
          quarantined: null,
          figures: [
            {
              figure: 'pass_rate',
              test: 'fisher-exact',
              baseline: { passed: 3, n: 3, rate: 1 },
              current: { passed: 1, n: 3, rate: 0.3333333333333333 },
              effect: -0.6666666666666667,
              interval: { low: -0.9385080552796038, high: 0.05856874558467462 },
              p: 0.4000000000000003,
              confidence: 0.95,
              verdict: 'unchanged',
              reason: 'too few runs',
              adjustedP: 0.4000000000000003,
              needs: { baseline: 7, current: 7 },
              verdict_text: 'unchanged (too few runs: needs 7 per side)',
            },
            {
              figure: 'tokens',
              test: 'mann-whitney-u-exact',
              baseline: { median: 110, n: 3 },
              current: { median: 210, n: 3 },
              effect: 100,
              p: 0.1,
              confidence: 0.95,
              verdict: 'unchanged',
              reason: 'too few runs',
              adjustedP: 0.1,
              needs: { baseline: 4, current: 4 },
              verdict_text: 'unchanged (too few runs: needs 4 per side)',
            },
            steady('turns', 3, 3, 4),
            steady('tool_calls', 2, 3, 4),
          ],
          baseline_runs: [
            { passed: true, tokens: 100, turns: 3, tool_calls: 2 },
            { passed: true, tokens: 110, turns: 3, tool_calls: 2 },
            { passed: true, tokens: 120, turns: 3, tool_calls: 2 },
          ],
          current_runs: [
            { passed: true, tokens: 200, turns: 3, tool_calls: 2 },
            { passed: false, tokens: 210, turns: 3, tool_calls: 2 },
            { passed: false, tokens: 220, turns: 3, tool_calls: 2 },
          ],
        },
        {
          id: `${FILE} > ${ANSWERS}`,
          verdict: 'unchanged',
          quarantined: { reason: 'the sandbox times out (#12)', date: '2026-12-01' },
          figures: [
            {
              figure: 'pass_rate',
              test: 'fisher-exact',
              baseline: { passed: 1, n: 1, rate: 1 },
              current: { passed: 1, n: 1, rate: 1 },
              effect: 0,
              interval: { low: -0.7934506856227626, high: 0.7934506856227626 },
              p: 1,
              confidence: 0.95,
              verdict: 'unchanged',
              reason: 'too few runs',
              adjustedP: 1,
              needs: { baseline: 4, current: 4 },
              verdict_text: 'unchanged (too few runs: needs 4 per side)',
            },
            steady('tokens', 50, 1, 4),
            steady('turns', 3, 1, 4),
            steady('tool_calls', 2, 1, 4),
          ],
          baseline_runs: [{ passed: true, tokens: 50, turns: 3, tool_calls: 2 }],
          current_runs: [{ passed: true, tokens: 50, turns: 3, tool_calls: 2 }],
        },
      ],
      only_in_baseline: [`${FILE} > old test`],
      only_in_current: [`${FILE} > new test`],
      flaky: [{ id: `${FILE} > ${REFUNDS}`, commit: 'bbb222', passed: 1, failed: 2 }],
      unmatched_quarantine: [{ test: `${FILE} > renamed long ago`, reason: 'gone', date: '2026-11-30' }],
    })
  })

  it('puts a regressed test first, though its name sorts after the others', () => {
    const { baseline, current } = writeRegression(tempDir())
    const payload = comparisonPayload(compareResults(baseline, current))
    expect(payload.tests.map((test) => [test.id, test.verdict, test.figures.map((figure) => figure.verdict_text)])).toEqual([
      [`${FILE} > ${REFUNDS}`, 'regressed', ['regressed', 'regressed', 'unchanged (within noise)', 'unchanged (within noise)']],
      [`${FILE} > ${ANSWERS}`, 'unchanged', ['unchanged (within noise)', 'unchanged (within noise)', 'unchanged (within noise)', 'unchanged (within noise)']],
    ])
    expect(payload.tests.map((test) => [test.baseline_runs.length, test.current_runs.length])).toEqual([
      [20, 20],
      [20, 20],
    ])
  })
})

describe('the comparison in the report', () => {
  it('keeps hostile test names inside the escaped data: no tag of theirs reaches the HTML, and they read back the same', () => {
    const dir = tempDir()
    const baseline = writeSide(dir, 'main', 'aaa111', { [HOSTILE_NAME]: [run(true, 1)] })
    const current = writeSide(dir, 'branch', 'bbb222', { [HOSTILE_NAME]: [run(false, 2)], '<img src=x onerror=alert(1)>': [run(true, 3)] })
    const comparison = comparisonPayload(compareResults(baseline, current))
    const report = buildReport({ dir: writeViewerDir(tempDir()), comparison })
    expect(report.html.match(/<\/script/gi)).toHaveLength(2)
    expect(report.html).not.toContain('<img')
    expect(report.html).not.toContain(HOSTILE_NAME)
    const data = JSON.parse(/<script type="application\/json" id="reagent-data">(.*)<\/script>\n<script>/s.exec(report.html)![1]!)
    expect(data.comparison.tests.map((test: { id: string }) => test.id)).toEqual([`${FILE} > ${HOSTILE_NAME}`])
    expect(data.comparison.only_in_current).toEqual([`${FILE} > <img src=x onerror=alert(1)>`])
  })

  it('is written by report --results --baseline, which says how many tests it compared', () => {
    const dir = tempDir()
    writeRegression(dir)
    const out = join(dir, 'report.html')
    const result = runCli(['report', '--dir', '.', '--out', out, '--results', 'branch', '--baseline', 'main'], dir)
    expect([result.code, result.stderr]).toEqual([0, ''])
    expect(result.stdout).toMatch(new RegExp(`^reagent-flow report: ${out} · 0 runs, 0 goldens · 2 tests compared with main · \\d+ bytes\\n$`))
  })

  it('refuses --baseline without --results, and --results without --baseline, in one line with exit code 2', () => {
    const dir = tempDir()
    writeRegression(dir)
    expect(runCli(['report', '--out', 'r.html', '--baseline', 'main'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow report: --baseline needs --results <results>: the current results to compare with the baseline\n',
    })
    expect(runCli(['report', '--out', 'r.html', '--results', 'branch'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow report: --results needs --baseline <results>: the results to compare them with, such as main’s last runs\n',
    })
    expect(runCli(['view', '--port', '0', '--baseline', 'main'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow view: --baseline needs --results <results>: the current results to compare with the baseline\n',
    })
  })
})

describe('the comparison in the viewer', () => {
  it('answers GET /api/comparison with the same payload, and says the page has one', async () => {
    const dir = tempDir()
    const { baseline, current } = writeRegression(dir)
    const build = () => comparisonPayload(compareResults(baseline, current))
    const viewer = await startViewer(writeViewerDir(tempDir()), { comparison: build })
    const response = await fetch(`${viewer.url}api/comparison`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(build())))
    expect(await (await fetch(viewer.url)).text()).toContain('<div id="app" data-source="server" data-comparison="1">')
  })

  it('answers 404 when started without a baseline, saying how to start it with one', async () => {
    const viewer = await startViewer(writeViewerDir(tempDir()))
    const response = await fetch(`${viewer.url}api/comparison`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({
      error: 'not_found',
      message: 'this viewer compares nothing: start it with --results <current results> --baseline <baseline results>',
    })
    expect(await (await fetch(viewer.url)).text()).toContain('<div id="app" data-source="server">')
  })
})
