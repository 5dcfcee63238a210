import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { saveTrace } from '../../src/entries/files.js'
import { writeReport } from '../../src/viewer/report.js'
import { describeInBrowser, type BrowserFixture } from '../helpers/browser.js'
import { longConversation, supportConversation, supportRecord } from '../helpers/conversation-trace.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { startViewer, type TestViewer } from './viewer-server.js'

const T0 = 1_800_000_000
const PWN = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'

/** A conversation run with its user's run, a hostile conversation, a 5,000-message one, and a run without one. */
function writeChatDir(dir: string): string {
  const times = { started_at: T0, ended_at: T0 + 2 }
  saveTrace(supportConversation('support', { ...times, trace_id: 'support-1' }, supportRecord({ user_trace_id: 'support-user-1' })), { traceDir: dir })
  saveTrace(
    buildTrace('support > user', [{ text: 'hi, I want my money back' }, { text: 'order 42' }], {
      ...times,
      trace_id: 'support-user-1',
      parent_trace_id: 'support-1',
      metadata: { reagent_role: 'user' },
    }),
    { traceDir: dir },
  )
  const hostile = supportRecord({
    goal: PWN,
    persona: 'javascript:window.__pwned = 3',
    ended_by: 'error',
    goal_met: null,
    reason: `Error: ${PWN}`,
    user_trace_id: null,
    messages: [
      { role: 'user', content: PWN, exchange: 1 },
      { role: 'assistant', content: `</script>${PWN}`, exchange: 1, turns: [0] },
    ],
    exchanges: 1,
  })
  saveTrace(supportConversation('hostile-chat', { ...times, trace_id: 'hostile-1', status: 'failed', error: { name: 'Error', message: PWN } }, hostile), {
    traceDir: dir,
  })
  saveTrace(longConversation('long-chat', 2500, { ...times, trace_id: 'long-1' }), { traceDir: dir })
  saveTrace(buildTrace('plain', [{ text: 'hi' }], { ...times, trace_id: 'plain-1' }), { traceDir: dir })
  return dir
}

/** The chat of the support run: bubbles, links to turns, the ending, goal, persona and the user's run. */
async function checkSupportChat(page: Page, base: string): Promise<void> {
  await page.goto(`${base}#/run/support.trace.json`)
  await page.getByRole('heading', { name: 'Chat (3 exchanges)', level: 2 }).waitFor()
  const chat = page.getByRole('list', { name: 'Chat between the simulated user and support' })
  expect(
    await chat.getByRole('listitem').evaluateAll((items) => items.map((item) => [item.querySelector('.bubble-who')?.textContent, item.className])),
  ).toEqual([
    ['User · exchange 1', 'bubble bubble-user'],
    ['Agent · exchange 1', 'bubble bubble-agent'],
    ['User · exchange 2', 'bubble bubble-user'],
    ['Agent · exchange 2', 'bubble bubble-agent'],
    ['User · exchange 3', 'bubble bubble-user'],
    ['Agent · exchange 3', 'bubble bubble-agent'],
  ])
  expect(await chat.locator('.bubble-text').allTextContents()).toEqual([
    'hi, I want my money back',
    'Which order is it?',
    'order 42',
    'Refunded $19.99 for order 42.',
    'thanks',
    'You are welcome!',
  ])
  expect(await chat.locator('.bubble-turns').allTextContents()).toEqual(['Turn: 0', 'Turns: 1 2 3', 'Turn: 4'])
  const section = page.locator('section.chat')
  expect(await section.locator('.facts div').allTextContents()).toEqual([
    'GoalGet a refund for order 42',
    'Personaterse, impatient',
    'Usersupport > user',
    'Endedended by the user after 3 exchanges: goal met ("got the refund")',
  ])
  expect(await section.locator('.chat-end').textContent()).toBe('ended by the user after 3 exchanges: goal met ("got the refund")')
  expect(await section.getByRole('link', { name: 'support > user' }).getAttribute('href')).toBe('#/run/support___user.trace.json')

  // An agent bubble's turn link selects that turn and brings it into view, its heading focused.
  await chat.getByRole('listitem').filter({ hasText: 'Agent · exchange 2' }).getByRole('link', { name: 'Turn 3' }).click()
  await page.getByRole('heading', { name: 'Turn 3', level: 3 }).waitFor()
  expect(page.url()).toBe(`${base}#/run/support.trace.json/turn/3`)
  expect(await page.locator('.turn-row.selected .turn-title').textContent()).toBe('Turn 3')
  expect(await page.locator('#turn-heading').evaluate((heading) => heading.ownerDocument.activeElement === heading)).toBe(true)
  expect(await page.locator('.turn-detail .response .text').textContent()).toBe('Refunded $19.99 for order 42.')
  const box = await page.locator('#turn-heading').boundingBox()
  expect(box !== null && box.y >= 0 && box.y < page.viewportSize()!.height).toBe(true)
}

/** Every string of the hostile conversation shows as the characters it is; nothing runs. */
async function checkHostileChat(browser: BrowserFixture, base: string): Promise<void> {
  const { page } = browser
  await page.goto(`${base}#/run/hostile-chat.trace.json`)
  await page.getByRole('heading', { name: 'Chat (1 exchange)', level: 2 }).waitFor()
  expect(await page.locator('.chat .bubble-text').allTextContents()).toEqual([PWN, `</script>${PWN}`])
  expect(await page.locator('.chat .facts dd').allTextContents()).toEqual([
    PWN,
    'javascript:window.__pwned = 3',
    'scripted',
    `failed: Error: ${JSON.stringify(PWN).slice(1, -1)}`,
  ])
  expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined()
  expect(await page.locator('img, [onerror], a[href^="javascript"]').count()).toBe(0)
  // The page's own script (and a report's data, JSON, not run): nothing the trace holds became one.
  expect(await page.locator('script:not(#reagent-data)').count()).toBe(1)
}

/** 5,000 messages: the first 200 bubbles at once, the next on request, the ending once all are shown. */
async function checkLongChat(page: Page, base: string): Promise<void> {
  await page.goto(`${base}#/run/long-chat.trace.json`)
  const started = Date.now()
  await page.getByRole('heading', { name: 'Chat (2,500 exchanges)', level: 2 }).waitFor()
  expect(Date.now() - started).toBeLessThan(3000)
  expect(await page.locator('.chat .bubble').count()).toBe(200)
  expect(await page.locator('.chat .chat-end').count()).toBe(0)
  await page.getByRole('button', { name: 'Show 200 more messages (4,800 not shown)' }).click()
  expect(await page.locator('.chat .bubble').count()).toBe(400)
  expect(await page.locator('.chat .bubble-text').nth(399).textContent()).toBe('answer 200')
  expect(await page.locator('.chat .facts dd').allTextContents()).toEqual([
    'Get a refund for order 42',
    'terse, impatient',
    'trace-support > user (not in this directory)',
    'stopped at maxTurns (2500)',
  ])
}

describeInBrowser('the Chat of a conversation run, in the viewer', (browser) => {
  let dir: string
  let viewer: TestViewer
  beforeAll(async () => {
    dir = writeChatDir(mkdtempSync(join(tmpdir(), 'reagent-chat-')))
    viewer = await startViewer(dir, { cleanup: false })
  })
  afterAll(async () => {
    await viewer?.server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('shows bubbles for user and agent, each agent bubble linking to the turns it produced, with the ending, goal and persona', async () => {
    await checkSupportChat(browser.page, viewer.url)
    expect(browser.errors).toEqual([])
  })

  it('shows a hostile conversation as text: no script runs, no link leaves the page', async () => {
    await checkHostileChat(browser, viewer.url)
  })

  it('opens a 5,000-message conversation at once, a page of bubbles at a time', async () => {
    await checkLongChat(browser.page, viewer.url)
  })

  it('shows no Chat for a run without a conversation', async () => {
    const { page } = browser
    await page.goto(`${viewer.url}#/run/plain.trace.json`)
    await page.getByRole('heading', { name: 'Turn 0', level: 3 }).waitFor()
    expect(await page.locator('section.chat').count()).toBe(0)
    expect(browser.errors).toEqual([])
  })
})

describeInBrowser('the Chat of a conversation run, in the static report', (browser) => {
  let dir: string
  let url: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'reagent-chat-report-'))
    writeChatDir(join(dir, '.reagent'))
    const file = join(dir, 'report.html')
    writeReport(file, { dir: join(dir, '.reagent') })
    url = pathToFileURL(file).href
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('shows the chat, links its replies to their turns, keeps hostile text as text, and pages a long one', async () => {
    await checkSupportChat(browser.page, url)
    await checkHostileChat(browser, url)
    await checkLongChat(browser.page, url)
    expect(browser.errors).toEqual([])
  })
})
