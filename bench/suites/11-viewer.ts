/**
 * The trace viewer in Debian's Chromium (skipped, with a line, when it is
 * not installed):
 *
 * - first render of a 10,000-turn run: from navigation to the Run page drawn
 *   (header, the first screen of the turn timeline, the selected turn), as
 *   the page marks it (`reagent:run-rendered`); target under 1.5 s; against
 *   fetching and parsing the same run's JSON in the page, measured in the
 *   same run (what any page must pay before drawing);
 * - scrolling: the frame time while the timeline scrolls through the run,
 *   a screen at a time (median of 120 frames; target: two frames at 60 Hz).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { saveTrace } from 'reagent-flow/files'
import { singleUser } from '../../src/ledger/identity.js'
import { startHttpServer } from '../../src/server/http-server.js'
import { loadPriceTable } from '../../src/storage/price-file.js'
import { TraceIndex } from '../../src/viewer/trace-index.js'
import { viewerRoutes } from '../../src/viewer/viewer-routes.js'
import type { Row } from '../lib/report.js'
import { bigTrace, TURNS } from '../lib/workload.js'
import type { BenchSuite } from '../run.js'

const CHROMIUM = process.env.REAGENT_CHROMIUM || '/usr/bin/chromium'
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
]
const RUNS = 7

// Run in the page (as text: this file is type-checked without the DOM's types).
const FETCH_AND_PARSE = `(async () => {
  const start = performance.now()
  await (await fetch('./api/run?id=big-run.trace.json', { cache: 'no-store' })).json()
  return performance.now() - start
})()`
const SCROLL_FRAMES = `new Promise((resolve) => {
  const list = document.querySelector('.vlist')
  const times = []
  let last = performance.now()
  const step = () => {
    const now = performance.now()
    times.push(now - last)
    last = now
    list.scrollTop += list.clientHeight
    if (times.length < 121) requestAnimationFrame(step)
    else resolve(times.slice(1))
  }
  requestAnimationFrame(step)
})`

const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!

export const suite: BenchSuite = {
  name: 'viewer',
  async run(): Promise<Row[]> {
    if (!existsSync(CHROMIUM)) {
      console.log(`\nviewer\n  skipped: ${CHROMIUM} is not installed (apt-get install chromium)`)
      return []
    }
    const dir = mkdtempSync(join(tmpdir(), 'reagent-bench-viewer-'))
    const profile = mkdtempSync(join(tmpdir(), 'reagent-bench-chromium-'))
    const trace = bigTrace()
    trace.name = 'big-run'
    saveTrace(trace, { traceDir: dir })
    const index = new TraceIndex({ dir, prices: loadPriceTable() })
    const owner = singleUser()
    const server = await startHttpServer({ port: 0, owner, groups: [viewerRoutes({ index, owner })], log: () => {} })
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      viewport: { width: 1280, height: 900 },
    })
    try {
      const page = context.pages()[0] ?? (await context.newPage())
      const url = `${server.url}/#/run/big-run.trace.json`
      const firstRender: number[] = []
      const fetchParse: number[] = []
      for (let run = 0; run < RUNS; run++) {
        await page.goto('about:blank')
        await page.goto(url)
        await page.waitForFunction(() => performance.getEntriesByName('reagent:run-rendered').length > 0, undefined, { timeout: 30_000 })
        const rows = await page.locator('.turn-row').count()
        if (rows === 0 || rows > 200) throw new Error(`the timeline should hold one screen of rows, not ${rows}`)
        firstRender.push(await page.evaluate(() => performance.getEntriesByName('reagent:run-rendered')[0]!.startTime))
        fetchParse.push(await page.evaluate<number>(FETCH_AND_PARSE))
      }
      const frames = await page.evaluate<number[]>(SCROLL_FRAMES)
      return [
        {
          suite: 'viewer',
          name: `first render of a ${TURNS.toLocaleString('en')}-turn run (Chromium)`,
          value: median(firstRender),
          unit: 'ms',
          baseline: median(fetchParse),
          baselineName: 'fetch + JSON.parse of the run',
          target: { max: 1500, of: 'value' },
        },
        {
          suite: 'viewer',
          name: 'scrolling the timeline a screen per frame: frame time',
          value: median(frames),
          unit: 'ms',
          target: { max: 33.4, of: 'value' },
        },
      ]
    } finally {
      await context.close()
      await server.close()
      rmSync(dir, { recursive: true, force: true })
      rmSync(profile, { recursive: true, force: true })
    }
  },
}
