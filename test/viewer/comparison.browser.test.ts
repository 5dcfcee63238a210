/**
 * The Comparison page in a real Chromium: the report file opened from disk,
 * and the viewer's `#/compare` route over its server, show the same thing:
 * the regressed test first with its verdicts, and for each figure an SVG
 * chart with one mark per run of each side.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { compareResults } from '../../src/results/compare-results.js'
import { comparisonPayload } from '../../src/viewer/comparison-payload.js'
import { writeReport } from '../../src/viewer/report.js'
import { describeInBrowser } from '../helpers/browser.js'
import { ANSWERS, FILE, REFUNDS, writeRegression, writeSide } from './comparison-results.js'
import { writeViewerDir } from './viewer-dir.js'
import { startViewer, type TestViewer } from './viewer-server.js'

const FIGURES = ['pass_rate', 'tokens', 'turns', 'tool_calls']

/** What the page shows, read back from its DOM: each test in order, each figure's verdict, and each chart's marks per side. */
async function shownComparison(page: Page) {
  await page.getByRole('heading', { name: 'Comparison', level: 1 }).waitFor()
  await page.locator('table.comparison tbody.compared-test').first().waitFor()
  return page.locator('tbody.compared-test').evaluateAll((groups) =>
    groups.map((group) => ({
      test: group.querySelector('.test-id')?.textContent,
      verdict: group.querySelector('tr.group .verdict')?.textContent,
      figures: [...group.querySelectorAll('tr[data-figure]')].map((row) => ({
        figure: row.getAttribute('data-figure'),
        verdict: row.querySelector('.verdict')?.textContent,
        chart: row.querySelector('svg.chart')?.getAttribute('data-figure'),
        baseline: row.querySelectorAll('svg.chart .run-mark[data-side="baseline"]').length,
        current: row.querySelectorAll('svg.chart .run-mark[data-side="current"]').length,
      })),
    })),
  )
}

const EXPECTED = [
  {
    test: `${FILE} > ${REFUNDS}`,
    verdict: 'regressed',
    figures: FIGURES.map((figure, at) => ({
      figure,
      verdict: at < 2 ? 'regressed' : 'unchanged (within noise)',
      chart: figure,
      baseline: 20,
      current: 20,
    })),
  },
  {
    test: `${FILE} > ${ANSWERS}`,
    verdict: 'unchanged',
    figures: FIGURES.map((figure) => ({ figure, verdict: 'unchanged (within noise)', chart: figure, baseline: 20, current: 20 })),
  },
]

describeInBrowser('the Comparison page in Chromium', (browser) => {
  let dir: string
  let reportUrl: string
  let viewer: TestViewer
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'reagent-compare-'))
    const { baseline, current } = writeRegression(dir)
    const build = () => comparisonPayload(compareResults(baseline, current))
    const traces = writeViewerDir(join(dir, '.reagent'))
    const file = join(dir, 'report.html')
    writeReport(file, { dir: traces, comparison: build() })
    reportUrl = pathToFileURL(file).href
    viewer = await startViewer(traces, { cleanup: false, comparison: build })
  })
  afterAll(async () => {
    await viewer?.server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('in the report opened from disk: linked from the Runs page, the regressed test first, a chart per figure with a mark per run', async () => {
    const { page } = browser
    const requests: string[] = []
    page.on('request', (request) => requests.push(request.url()))
    await page.goto(reportUrl)
    await page.getByRole('heading', { name: 'Runs' }).waitFor()
    await page.getByRole('link', { name: 'Comparison with the baseline' }).click()
    expect(page.url()).toBe(`${reportUrl}#/compare`)
    expect(await shownComparison(page)).toEqual(EXPECTED)
    const refundRow = page.locator('tbody.compared-test').first().locator('tr[data-figure="pass_rate"]')
    expect((await refundRow.locator('td').allTextContents()).slice(0, 5)).toEqual(['19/20 (95%)n = 20', '12/20 (60%)n = 20', 'regressed', '0.0197', '0.0197'])
    expect(await refundRow.locator('svg.chart').getAttribute('aria-label')).toBe('pass rate: baseline 19 of 20 passed, current 12 of 20 passed')
    expect(await page.locator('tbody.compared-test').first().locator('svg.chart[data-figure="pass_rate"] .run-failed').count()).toBe(1 + 8)
    expect(await page.locator('.count').textContent()).toBe('1 regressed, 0 improved, 1 unchanged')
    expect(await page.title()).toBe(`Comparison · reagent-flow · ${join(dir, '.reagent')}`)
    expect(requests.every((request) => request.startsWith('file://'))).toBe(true)
    page.removeAllListeners('request')
    if (process.env.REAGENT_SCREENSHOT) await page.screenshot({ path: process.env.REAGENT_SCREENSHOT, fullPage: true })
    expect(browser.errors).toEqual([])
  })

  it('in the viewer at #/compare, from its server: the same page', async () => {
    const { page } = browser
    await page.goto(viewer.url)
    await page.getByRole('heading', { name: 'Runs' }).waitFor()
    expect(await page.getByRole('link', { name: 'Comparison with the baseline' }).getAttribute('href')).toBe('#/compare')
    await page.goto(`${viewer.url}#/compare`)
    expect(await shownComparison(page)).toEqual(EXPECTED)
    expect(await page.locator('section.compare-list li').allTextContents()).toEqual([
      `${FILE} > ${REFUNDS} on aaa111: 19 passed, 1 failed`,
      `${FILE} > ${REFUNDS} on bbb222: 12 passed, 8 failed`,
    ])
    expect(browser.errors).toEqual([])
  })

  it('shows hostile test names as text: no script of theirs runs, no element of theirs is made', async () => {
    const { page } = browser
    const hostile = '</script><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
    const baseline = writeSide(dir, 'hostile-main', 'aaa111', { [hostile]: [{ passed: true, tokens: 1 }] })
    const current = writeSide(dir, 'hostile-branch', 'bbb222', {
      [hostile]: [{ passed: true, tokens: 2 }],
      '<img src=x onerror=alert(1)>': [{ passed: true, tokens: 3 }],
    })
    const file = join(dir, 'hostile.html')
    writeReport(file, { dir: join(dir, '.reagent'), comparison: comparisonPayload(compareResults(baseline, current)) })
    await page.goto(`${pathToFileURL(file).href}#/compare`)
    await page.locator('tbody.compared-test').first().waitFor()
    expect(await page.locator('.test-id').allTextContents()).toEqual([`${FILE} > ${hostile}`])
    expect(await page.locator('section.compare-list li').allTextContents()).toEqual([`${FILE} > <img src=x onerror=alert(1)>`])
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined()
    expect(await page.locator('img, [onerror]').count()).toBe(0)
    expect(browser.errors).toEqual([])
  })

  it('has no link to a comparison on the Runs page of a viewer without one', async () => {
    const plain = await startViewer(join(dir, '.reagent'), { cleanup: false })
    try {
      const { page } = browser
      await page.goto(plain.url)
      await page.getByRole('heading', { name: 'Runs' }).waitFor()
      expect(await page.getByRole('link', { name: 'Comparison with the baseline' }).count()).toBe(0)
      await page.goto(`${plain.url}#/compare`)
      await page
        .getByRole('alert')
        .filter({ hasText: 'this viewer compares nothing: start it with --results <current results> --baseline <baseline results>' })
        .waitFor()
    } finally {
      await plain.server.close()
    }
  })
})
