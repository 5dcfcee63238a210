import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { session } from '../../src/entries/index.js'
import { saveTrace } from '../../src/entries/files.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { describeInBrowser } from '../helpers/browser.js'
import { HOSTILE, HOSTILE_FILE, writeViewerDir } from './viewer-dir.js'
import { startViewer, type TestViewer } from './viewer-server.js'

describeInBrowser('the viewer in Chromium', (browser) => {
  let dir: string
  let viewer: TestViewer
  beforeAll(async () => {
    dir = writeViewerDir(mkdtempSync(join(tmpdir(), 'reagent-viewer-')))
    viewer = await startViewer(dir, { cleanup: false })
  })
  afterAll(async () => {
    await viewer?.server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const names = () => browser.page.locator('table.runs .run-link').allTextContents()

  it('lists runs and goldens, grouped by test file, and filters them by status, text and failing only', async () => {
    const { page } = browser
    await page.goto(viewer.url)
    await page.getByRole('heading', { name: 'Runs' }).waitFor()
    expect((await names()).length).toBe(11)
    expect(await page.locator('tr.group th').allTextContents()).toEqual(['tests/refund.test.ts', 'Not in a test file'])
    await page.getByLabel('Status').selectOption('failed')
    expect(await names()).toEqual(['crashed-agent'])
    expect(page.url()).toBe(`${viewer.url}#/runs?status=failed`)
    await page.getByLabel('Status').selectOption('')
    await page.getByRole('searchbox', { name: 'Search' }).fill('REFUND')
    expect((await names()).sort()).toEqual(['happy path', 'happy path', 'refund-agent', 'refund-agent'])
    await page.getByRole('searchbox', { name: 'Search' }).fill('')
    await page.getByLabel('Failing only').check()
    expect((await names()).sort()).toEqual(['crashed-agent', 'refund-agent'])
    await page.getByLabel('Failing only').uncheck()
    await page.getByRole('button', { name: 'Cost' }).click()
    expect(await page.locator('table.runs tbody').nth(1).locator('.run-link').first().textContent()).toBe('refund-agent')
    expect(await page.getByRole('columnheader', { name: 'Cost' }).getAttribute('aria-sort')).toBe('descending')
    expect(browser.errors).toEqual([])
  })

  it('opens a run, steps through its turns with j and k, and links to each turn', async () => {
    const { page } = browser
    await page.goto(`${viewer.url}#/runs`)
    await page.getByRole('link', { name: 'refund-agent', exact: true }).first().click()
    await page.getByRole('heading', { name: 'Turn 0', level: 3 }).waitFor()
    expect(await page.locator('.run-name').textContent()).toBe('refund-agent')
    await page.keyboard.press('j')
    await page.getByRole('heading', { name: 'Turn 1', level: 3 }).waitFor()
    expect(page.url()).toBe(`${viewer.url}#/run/refund-agent.trace.json/turn/1`)
    expect(await page.locator('.turn-detail .tool-name').first().textContent()).toBe('issue_refund')
    await page.keyboard.press('j')
    await page.keyboard.press('j')
    await page.getByRole('heading', { name: 'Turn 2', level: 3 }).waitFor()
    await page.keyboard.press('k')
    await page.getByRole('heading', { name: 'Turn 1', level: 3 }).waitFor()
    expect(await page.locator('.turn-row.selected .turn-title').textContent()).toBe('Turn 1')
    await page.goto(`${viewer.url}#/run/refund-agent.trace.json/turn/2`)
    await page.reload()
    await page.getByRole('heading', { name: 'Turn 2', level: 3 }).waitFor()
    expect(await page.locator('.turn-detail .response .text').textContent()).toBe('Refunded $25 for order 42.')
  })

  it('shows the error and agent stack trace of a failed run, and the chain of agents with links', async () => {
    const { page } = browser
    await page.goto(`${viewer.url}#/run/crashed-agent.trace.json`)
    await page.getByRole('heading', { name: 'What went wrong' }).waitFor()
    expect(await page.locator('.failure .error-box').textContent()).toBe('Error: downstream exploded')
    expect(await page.getByLabel('agent stack trace').textContent()).toContain('charge_card({"card":"4242"})')
    await page.goto(`${viewer.url}#/run/billing-agent.trace.json`)
    await page.getByRole('heading', { name: 'Chain of agents' }).waitFor()
    expect(await page.locator('.chain-tree a').allTextContents()).toEqual(['support-agent'])
    expect(await page.locator('.chain-tree [aria-current="page"]').textContent()).toBe('billing-agent')
  })

  it('opens the diff of a run against its differing golden and reads the changed argument', async () => {
    const { page } = browser
    await page.goto(`${viewer.url}#/runs`)
    await page.getByRole('link', { name: /golden differs \(2\)/ }).click()
    await page.getByRole('heading', { name: '2 differences (strict)' }).waitFor()
    const change = page.locator('.change', { has: page.locator('code.path', { hasText: 'arguments.amount' }) })
    expect(await change.locator('code.path').textContent()).toBe('turns[1].llm_call.tool_calls[0].arguments.amount')
    expect(await change.locator('.expected-value code').textContent()).toBe('19.99')
    expect(await change.locator('.actual-value code').textContent()).toBe('25')
    expect(await page.locator('.text-diff del').allTextContents()).toEqual(['19.99'])
    expect(await page.locator('#approve-command').textContent()).toBe(`npx reagent-flow approve refund-agent --dir ${dir}`)
    await page.getByLabel('Arguments').selectOption('ignore')
    await page.getByRole('button', { name: 'Compare' }).click()
    await page.getByRole('heading', { name: '1 difference (strict)' }).waitFor()
    await page.getByRole('link', { name: 'open actual turn 1' }).click()
    await page.getByRole('heading', { name: 'Turn 1', level: 3 }).waitFor()
  })

  it('shows a new run without a reload, and a run being recorded until it completes', async () => {
    const { page } = browser
    await page.goto(`${viewer.url}#/runs`)
    await page.getByRole('heading', { name: 'Runs' }).waitFor()
    saveTrace(buildTrace('fresh-agent', [{ text: 'new' }], { trace_id: 'fresh-1' }), { traceDir: dir })
    await page.getByRole('link', { name: 'fresh-agent' }).waitFor({ timeout: 8000 })
    await session('live-agent', { traceDir: dir }, async (s) => {
      s.logLlmCall({ model: 'gpt-4o', responseText: 'thinking' })
      const row = page.locator('tr', { has: page.getByRole('link', { name: 'live-agent' }) })
      await row.locator('.status-active').waitFor({ timeout: 8000 })
      await row.getByRole('link', { name: 'live-agent' }).click()
      await page.getByRole('heading', { name: 'Turn 0', level: 3 }).waitFor()
      s.logLlmCall({ model: 'gpt-4o', responseText: 'done' })
      await page.locator('.turn-row', { hasText: 'Turn 1' }).waitFor({ timeout: 8000 })
    })
    await page.locator('.run-header .status-completed').waitFor({ timeout: 8000 })
    expect(page.url()).toMatch(/#\/run\/live-agent\.trace\.json/)
  })

  it('follows the system colour scheme, light or dark, and keeps the one chosen with its button', async () => {
    const { page } = browser
    const background = () => page.evaluate<string>('getComputedStyle(document.body).backgroundColor')
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto(viewer.url)
    await page.getByRole('heading', { name: 'Runs' }).waitFor()
    expect(await background()).toBe('rgb(15, 18, 22)')
    await page.getByRole('button', { name: 'Theme: auto' }).click()
    expect(await background()).toBe('rgb(255, 255, 255)')
    await page.reload()
    await page.getByRole('button', { name: 'Theme: light' }).click()
    expect(await background()).toBe('rgb(15, 18, 22)')
    await page.getByRole('button', { name: 'Theme: dark' }).click()
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await background()).toBe('rgb(255, 255, 255)')
  })

  it('shows everything in a hostile trace as text: no script runs, no link leaves the page', async () => {
    const { page } = browser
    await page.goto(`${viewer.url}#/run/${encodeURIComponent(HOSTILE_FILE)}`)
    await page.getByRole('heading', { name: 'Turn 0', level: 3 }).waitFor()
    expect(await page.locator('.run-name').textContent()).toBe(HOSTILE.name)
    expect(await page.locator('.turn-detail .response .text').textContent()).toBe(HOSTILE.text)
    expect(await page.locator('.turn-detail .tool-name').first().textContent()).toBe(HOSTILE.key)
    await page.goto(`${viewer.url}#/runs?q=hostile`)
    await page.getByRole('link', { name: HOSTILE.name }).waitFor()
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined()
    expect(await page.locator('script').count()).toBe(1)
    expect(await page.locator('img, [onerror], [onmouseover], a[href^="javascript"]').count()).toBe(0)
  })
})
