import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { writeReport } from '../../src/viewer/report.js'
import { describeInBrowser } from '../helpers/browser.js'
import { HOSTILE, HOSTILE_FILE, writeViewerDir } from './viewer-dir.js'

describeInBrowser('the static report in Chromium, opened from a file', (browser) => {
  let dir: string
  let url: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'reagent-report-'))
    writeViewerDir(join(dir, '.reagent'))
    const file = join(dir, 'report.html')
    writeReport(file, { dir: join(dir, '.reagent') })
    url = pathToFileURL(file).href
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('shows the runs, a run with its turns, and steps through them with the keyboard, with no network', async () => {
    const { page } = browser
    const requests: string[] = []
    page.on('request', (request) => requests.push(request.url()))
    await page.goto(url)
    await page.getByRole('heading', { name: 'Runs' }).waitFor()
    expect(await page.locator('.live').textContent()).toMatch(/^report written \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/)
    expect(await page.locator('table.runs .run-link').count()).toBe(11)
    await page.getByRole('link', { name: 'refund-agent', exact: true }).first().click()
    await page.getByRole('heading', { name: 'Turn 0', level: 3 }).waitFor()
    await page.keyboard.press('j')
    await page.getByRole('heading', { name: 'Turn 1', level: 3 }).waitFor()
    expect(page.url()).toBe(`${url}#/run/refund-agent.trace.json/turn/1`)
    expect(requests.every((request) => request.startsWith('file://'))).toBe(true)
    page.removeAllListeners('request')
  })

  it('diffs a run against its golden, with other options and against any run, computed in the page', async () => {
    const { page } = browser
    await page.goto(`${url}#/diff?actual=refund-agent.trace.json`)
    await page.getByRole('heading', { name: '2 differences (strict)' }).waitFor()
    const change = page.locator('.change', { has: page.locator('code.path', { hasText: 'arguments.amount' }) })
    expect(await change.locator('.expected-value code').textContent()).toBe('19.99')
    expect(await change.locator('.actual-value code').textContent()).toBe('25')
    expect(await page.locator('#approve-command').textContent()).toBe(`npx reagent-flow approve refund-agent --dir ${join(dir, '.reagent')}`)
    await page.goto(`${url}#/diff?actual=refund-agent.trace.json&ignore=response_text`)
    await page.getByRole('heading', { name: '1 difference (strict)' }).waitFor()
    await page.getByLabel('Expected', { exact: true }).selectOption('search-agent.trace.json')
    await page.getByRole('button', { name: 'Compare' }).click()
    await page.getByRole('heading', { name: /differences \(strict\)/ }).waitFor()
    expect(await page.locator('.sides li').first().textContent()).toContain('search-agent.trace.json')
    expect(browser.errors).toEqual([])
  })

  it('runs no script from a hostile trace: </script> in the data ends nothing, text stays text', async () => {
    const { page } = browser
    await page.goto(`${url}#/run/${encodeURIComponent(HOSTILE_FILE)}`)
    await page.getByRole('heading', { name: 'Turn 0', level: 3 }).waitFor()
    expect(await page.locator('.run-name').textContent()).toBe(HOSTILE.name)
    expect(await page.locator('.turn-detail .response .text').textContent()).toBe(HOSTILE.text)
    expect(await page.locator('.message .role').allTextContents()).toEqual(['user', '<img src=x onerror=alert(1)>'])
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined()
    expect(await page.locator('img, [onerror], [onmouseover], a[href^="javascript"]').count()).toBe(0)
    expect(browser.errors).toEqual([])
  })
})
