import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { writeReport } from '../../src/viewer/report.js'
import { describeInBrowser } from '../helpers/browser.js'
import { supportDir } from './spend-dir.js'

describeInBrowser("the Run page's Spend, in the static report in Chromium", (browser) => {
  let dir: string
  let url: string
  beforeAll(() => {
    dir = supportDir(mkdtempSync(join(tmpdir(), 'reagent-spend-')))
    const file = join(dirname(dir), 'report.html')
    writeReport(file, { dir })
    url = pathToFileURL(file).href
  })
  afterAll(() => rmSync(dirname(dir), { recursive: true, force: true }))

  it('shows who spent what on a run with helper runs, and no Spend on a run without', async () => {
    const { page } = browser
    const spendOf = async (run: string): Promise<string[]> => {
      await page.goto(`${url}#/run/${run}`)
      await page.getByRole('heading', { name: 'Turn 0', level: 3 }).waitFor()
      return page
        .locator('dl.facts div', { has: page.locator('dt', { hasText: /^Spend$/ }) })
        .locator('dd')
        .allTextContents()
    }
    expect(await spendOf('support.trace.json')).toEqual([
      'agent 1,100 tokens $0.00021 · user 20,500 tokens $0.06 · judge 320 tokens no price for my-judge · total 21,920 tokens $0.06 + no price for my-judge',
    ])
    expect(await spendOf('alone.trace.json')).toEqual([])
  })
})
