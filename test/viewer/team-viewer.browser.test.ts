import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { renderGolden } from '../../src/golden/index.js'
import { tracePath } from '../../src/storage/index.js'
import type { Caller, TokenRegistry } from '../../src/server/caller.js'
import type { Trace } from '../../src/trace/types.js'
import { describeInBrowser } from '../helpers/browser.js'
import { tempDir } from '../helpers/temp-dir.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { POSTGRES_URL, postgresLedgers, startDirectoryLedger, T0, type LedgerSetup, type StartLedger, type TestLedger } from '../ledger/harness.js'

const DAY = 86_400
/** The UTC days of T0 (2027-01-15, a Friday) and the one after: the Trends page's buckets. */
const DAY0 = Math.floor(T0 / DAY) * DAY
const DAY1 = DAY0 + DAY
const OLD = 'aaaa1111aaaa1111'
const NEW = 'bbbb2222bbbb2222'
const TOKEN = 'team-viewer-token-0123456789'
const TRIAGE_TOKEN = 'triage-only-token-0123456789'

function refundTrace(amount: number, tokens: { input: number; output: number }, runId: string): Trace {
  return buildTrace(
    'refund-agent',
    [
      {
        calls: [{ name: 'issue_refund', args: { order_id: '42', amount }, result: { ok: true } }],
        tokens: { input_tokens: tokens.input, output_tokens: tokens.output },
      },
      { text: 'Refunded.', tokens: null, model: null },
    ],
    { trace_id: `trace-${runId}` },
  )
}

interface SeedRun {
  run_id: string
  agent: string
  commit: string
  day: 0 | 1
  status: 'completed' | 'failed'
  trace?: Trace
}

/**
 * Five runs over two days: refund-agent passes 1 of 2 on day 0 (commit OLD) and 2 of 2 on day 1 (commit NEW);
 * triage-agent passes its one run on day 0. Costs (gpt-4o, $2.50 / $10 per million): 1,000 in + 500 out is $0.0075.
 */
const RUNS: SeedRun[] = [
  { run_id: 'r-refund-1', agent: 'refund-agent', commit: OLD, day: 0, status: 'completed', trace: refundTrace(25, { input: 1000, output: 500 }, 'r-refund-1') },
  { run_id: 'r-refund-2', agent: 'refund-agent', commit: OLD, day: 0, status: 'failed', trace: refundTrace(19.99, { input: 1000, output: 500 }, 'r-refund-2') },
  {
    run_id: 'r-triage-1',
    agent: 'triage-agent',
    commit: OLD,
    day: 0,
    status: 'completed',
    trace: buildTrace('triage-agent', [{ text: 'billing', tokens: { input_tokens: 2000, output_tokens: 1000 } }], { trace_id: 'trace-r-triage-1' }),
  },
  {
    run_id: 'r-refund-3',
    agent: 'refund-agent',
    commit: NEW,
    day: 1,
    status: 'completed',
    trace: refundTrace(19.99, { input: 2000, output: 1000 }, 'r-refund-3'),
  },
  { run_id: 'r-refund-4', agent: 'refund-agent', commit: NEW, day: 1, status: 'completed' },
]

/** The golden of refund-agent, where the golden engine files it under `dir`: it refunds 19.99, so r-refund-1 (25) differs by one argument. */
function writeGolden(dir: string): void {
  const path = tracePath('refund-agent', { traceDir: dir, golden: true })
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, renderGolden(refundTrace(19.99, { input: 1000, output: 500 }, 'golden')).text)
}

async function seed(ledger: TestLedger, token?: string): Promise<void> {
  const init = token === undefined ? {} : { token }
  for (const run of RUNS) {
    ledger.clock.seconds = T0 + run.day * DAY + RUNS.indexOf(run) * 60
    const begun = await ledger.call(
      'run.begin',
      { run_id: run.run_id, agent: run.agent, goal: `refund order ${run.run_id}`, metadata: { git_commit: run.commit } },
      init,
    )
    expect(begun.status).toBe(200)
    if (run.trace !== undefined) expect((await ledger.call('trace.put', { run_id: run.run_id, trace: run.trace }, init)).status).toBe(200)
    ledger.clock.advance(2)
    expect((await ledger.call('run.complete', { run_id: run.run_id, status: run.status }, init)).status).toBe(200)
  }
  expect((await ledger.call('run.grade', { run_id: 'r-refund-2', grade: 'fail', source: 'human', reason: 'refunded the wrong amount' }, init)).status).toBe(200)
  ledger.clock.seconds = T0 + 2 * DAY
}

function registry(org: string): TokenRegistry {
  const callers = new Map<string, Caller>([
    // The team's token records the runs; the triage token may only look.
    [TOKEN, { org, namespace: 'default', bound: true, label: 'token "team"', role: 'write' }],
    [TRIAGE_TOKEN, { org, namespace: 'default', agent: 'triage-agent', bound: true, label: 'token "triage"', role: 'read' }],
  ])
  return { lookup: (token) => callers.get(token), size: callers.size, callers: () => [...callers.values()] }
}

const postgres = postgresLedgers()
afterAll(() => postgres.drop())

const STORES: Array<{ kind: string; start: StartLedger; available: boolean; goldenDir: (setupDir: string) => string }> = [
  // The directory store's goldens are its own trace directory's.
  { kind: 'a directory store', start: startDirectoryLedger, available: true, goldenDir: (dir) => dir },
  { kind: 'a PostgreSQL store', start: postgres.start, available: POSTGRES_URL !== undefined, goldenDir: () => tempDir('reagent-goldens-') },
]

for (const store of STORES) {
  describe.skipIf(!store.available)(`the team viewer over ${store.kind}`, () => {
    describeInBrowser('in Chromium', (browser) => {
      /** A ledger with the team viewer, the five runs, and refund-agent's golden. */
      async function start(setup: LedgerSetup = {}): Promise<{ ledger: TestLedger; url: string }> {
        const dir = tempDir('reagent-team-')
        const goldenDir = store.goldenDir(dir)
        writeGolden(goldenDir)
        const ledger = await store.start({ ...setup, dir, teamViewer: { goldenDir } })
        return { ledger, url: `${ledger.url}/ledger/` }
      }
      const ids = () => browser.page.locator('table.ledger-runs .run-link').allTextContents()

      it('lists the ledger runs newest first, filters them by agent, status and grade, and pages through them', async () => {
        const { ledger, url } = await start()
        await seed(ledger)
        const { page } = browser
        await page.goto(url)
        await page.getByRole('heading', { name: 'Runs' }).waitFor()
        await page.locator('table.ledger-runs').waitFor()
        expect(await ids()).toEqual(['r-refund-4', 'r-refund-3', 'r-triage-1', 'r-refund-2', 'r-refund-1'])
        expect(await page.getByRole('status').first().textContent()).toBe('Runs 1–5 of 5')
        expect(await page.locator('tr[data-id="r-refund-3"] code').textContent()).toBe(NEW.slice(0, 12))
        await page.getByLabel('Status').selectOption('failed')
        await page.locator('table.ledger-runs tbody tr').first().waitFor()
        await expect.poll(ids).toEqual(['r-refund-2'])
        expect(page.url()).toBe(`${url}#/runs?status=failed`)
        await page.getByLabel('Status').selectOption('')
        await page.getByLabel('Grade').selectOption('ungraded')
        await expect.poll(ids).toEqual(['r-refund-4', 'r-refund-3', 'r-triage-1', 'r-refund-1'])
        await page.getByLabel('Grade').selectOption('fail')
        await expect.poll(ids).toEqual(['r-refund-2'])
        expect(await page.locator('tr[data-id="r-refund-2"] .grade-fail').getAttribute('title')).toBe('refunded the wrong amount')
        await page.getByLabel('Grade').selectOption('')
        await page.getByLabel('Agent').fill('triage-agent')
        await page.getByLabel('Agent').press('Enter')
        await expect.poll(ids).toEqual(['r-triage-1'])
        await page.goto(`${url}#/runs?order_by=started_asc&limit=2`)
        await expect.poll(ids).toEqual(['r-refund-1', 'r-refund-2'])
        await page.getByRole('button', { name: 'Next page' }).click()
        await expect.poll(ids).toEqual(['r-triage-1', 'r-refund-3'])
        await page.getByRole('button', { name: 'Next page' }).click()
        await expect.poll(ids).toEqual(['r-refund-4'])
        expect(await page.getByRole('button', { name: 'Next page' }).count()).toBe(0)
        await page.getByRole('button', { name: 'Previous page' }).click()
        await expect.poll(ids).toEqual(['r-triage-1', 'r-refund-3'])
        expect(browser.errors).toEqual([])
      })

      it("opens a run with its trace and the ledger's facts, and its diff against the golden of the server's directory", async () => {
        const { ledger, url } = await start()
        await seed(ledger)
        const { page } = browser
        await page.goto(`${url}#/runs`)
        await page.getByRole('link', { name: 'r-refund-1', exact: true }).click()
        await page.getByRole('heading', { name: 'Turn 0', level: 3 }).waitFor()
        expect(await page.locator('.run-name').textContent()).toBe('refund-agent')
        expect(await page.locator('.turn-detail .tool-name').first().textContent()).toBe('issue_refund')
        const fact = (name: string) => page.locator('.ledger-facts dt', { hasText: name }).locator('xpath=following-sibling::dd[1]').textContent()
        expect(await fact('Cost')).toBe('$0.0075 (1 turn unpriced)')
        expect(await fact('Commit')).toBe(OLD)
        expect(await fact('Agent')).toBe('refund-agent')
        await page.getByRole('link', { name: /golden differs \(1\)/ }).click()
        await page.getByRole('heading', { name: '1 difference (strict)' }).waitFor()
        const change = page.locator('.change', { has: page.locator('code.path', { hasText: 'arguments.amount' }) })
        expect(await change.locator('.expected-value code').textContent()).toBe('19.99')
        expect(await change.locator('.actual-value code').textContent()).toBe('25')
        await page.goto(`${url}#/run/r-refund-3`)
        await page.getByRole('heading', { name: 'Turn 0', level: 3 }).waitFor()
        expect(await page.locator('.run-header .golden-matches').textContent()).toBe('matches')
        await page.goto(`${url}#/run/r-refund-4`)
        await page.getByText('No trace was sent for this run (trace.put): the ledger holds its row only.').waitFor()
        await page.goto(`${url}#/run/no-such-run`)
        await page.getByRole('heading', { name: 'Run not found' }).waitFor()
        expect(await page.getByRole('alert').textContent()).toBe(
          'there is no run "no-such-run" in this ledger that your token may see; the Runs page lists them',
        )
        browser.errors.length = 0
      })

      it('draws pass rate and cost per agent per day with uPlot, marks the commit that changed, and regroups by week', async () => {
        const { ledger, url } = await start()
        await seed(ledger)
        const { page } = browser
        await page.goto(`${url}#/trends`)
        await page.locator('#chart-pass-rate .uplot canvas').waitFor()
        const data = async (chart: string) => {
          const figure = page.locator(`#chart-${chart}`)
          return {
            x: JSON.parse((await figure.getAttribute('data-x'))!),
            series: JSON.parse((await figure.getAttribute('data-series'))!),
            marks: JSON.parse((await figure.getAttribute('data-marks'))!),
          }
        }
        expect(await data('pass-rate')).toEqual({
          x: [DAY0, DAY1],
          series: [
            { agent: 'refund-agent', values: [50, 100] },
            { agent: 'triage-agent', values: [100, null] },
          ],
          marks: [{ agent: 'refund-agent', at: DAY1, commit: NEW, previous: OLD }],
        })
        expect((await data('cost')).series).toEqual([
          { agent: 'refund-agent', values: [0.015, 0.015] },
          { agent: 'triage-agent', values: [0.015, null] },
        ])
        // uPlot's own legend: one entry per agent; hovering the last bucket shows the values the chart holds there.
        const legend = page.locator('#chart-pass-rate .u-legend')
        expect(await legend.locator('.u-series .u-label').allTextContents()).toEqual(['Bucket (UTC)', 'refund-agent', 'triage-agent'])
        const over = page.locator('#chart-pass-rate .u-over')
        const box = (await over.boundingBox())!
        await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2)
        await expect.poll(() => legend.locator('.u-series .u-value').allTextContents()).toEqual(['2027-01-16 00:00:00 UTC', '100%', '—'])
        await page.mouse.move(box.x + 2, box.y + box.height / 2)
        await expect.poll(() => legend.locator('.u-series .u-value').allTextContents()).toEqual(['2027-01-15 00:00:00 UTC', '50%', '100%'])
        expect(await page.locator('.commit-changes li').allTextContents()).toEqual([`refund-agent: 2027-01-16 00:00:00 UTC ${OLD} → ${NEW}`])
        // An agent of the list links to its runs.
        await page.locator('.commit-changes').getByRole('link', { name: 'refund-agent' }).click()
        await expect.poll(ids).toEqual(['r-refund-4', 'r-refund-3', 'r-refund-2', 'r-refund-1'])
        expect(page.url()).toBe(`${url}#/runs?agent=refund-agent`)
        await page.goBack()
        await page.locator('#chart-pass-rate .uplot canvas').waitFor()
        // The axes are drawn in the scheme's text colour, and drawn again when the theme button changes the scheme.
        expect(await page.locator('#chart-pass-rate').getAttribute('data-ink')).toBe('rgb(27, 31, 36)')
        await page.getByRole('button', { name: 'Theme: auto' }).click()
        await page.getByRole('button', { name: 'Theme: light' }).click()
        await expect.poll(() => page.locator('#chart-pass-rate').getAttribute('data-ink')).toBe('rgb(230, 233, 238)')
        await page.getByRole('button', { name: 'Theme: dark' }).click()
        await expect.poll(() => page.locator('#chart-pass-rate').getAttribute('data-ink')).toBe('rgb(27, 31, 36)')
        expect(await page.locator('table.trend-table[data-chart="cost"] tbody tr').allTextContents()).toEqual([
          '2027-01-15 00:00:00 UTC$0.015$0.015',
          '2027-01-16 00:00:00 UTC$0.015—',
        ])
        await page.getByLabel('Bucket').selectOption('week')
        // 2027-01-15 and 16 fall in the ISO week of Monday 2027-01-11: 3 of 4 refunds passed, and one bucket has no commit change.
        await expect
          .poll(async () => (await data('pass-rate')).series)
          .toEqual([
            { agent: 'refund-agent', values: [75] },
            { agent: 'triage-agent', values: [100] },
          ])
        expect(await data('pass-rate')).toMatchObject({ x: [DAY0 - 4 * DAY], marks: [] })
        expect(page.url()).toBe(`${url}#/trends?bucket=week`)
        // The last 24 hours from the server's clock (2027-01-17 08:00): day 1's two refunds.
        await page.getByLabel('Window').selectOption('24h')
        await expect.poll(async () => (await data('pass-rate')).series).toEqual([{ agent: 'refund-agent', values: [100] }])
        expect(page.url()).toBe(`${url}#/trends?bucket=week&since=24h`)
        expect(browser.errors).toEqual([])
      })

      it('takes a token once from ?token=, keeps it in an HttpOnly cookie, shows only what the token may see, and refuses a wrong token', async () => {
        let org = ''
        const tokens: TokenRegistry = { lookup: (token) => registry(org).lookup(token), size: 2, callers: () => registry(org).callers() }
        const { ledger, url } = await start({ tokens })
        org = ledger.org
        await seed(ledger, TOKEN)
        const { page, context } = browser
        await context.clearCookies()
        const refused = await page.goto(url)
        expect(refused?.status()).toBe(401)
        expect(JSON.parse((await page.locator('body').textContent()) ?? '')).toMatchObject({ error: 'unauthorized' })
        const wrong = await page.goto(`${url}?token=not-a-token-of-this-server`)
        expect(wrong?.status()).toBe(401)
        expect(JSON.parse((await page.locator('body').textContent()) ?? '')).toEqual({
          error: 'unauthorized',
          message: "the bearer token is not one of this server's tokens (its --token-file)",
        })
        await page.goto(`${url}?token=${TRIAGE_TOKEN}#/runs`)
        expect(page.url()).toBe(`${url}#/runs`)
        const [cookie] = await context.cookies()
        expect(cookie).toMatchObject({ name: 'reagent_token', value: TRIAGE_TOKEN, httpOnly: true, sameSite: 'Strict' })
        // Narrowed to triage-agent: the page shows its run only, and its trends only.
        await expect.poll(ids).toEqual(['r-triage-1'])
        await page.goto(`${url}#/run/r-refund-1`)
        await page.getByRole('heading', { name: 'Run not found' }).waitFor()
        await page.goto(`${url}#/trends`)
        await page.locator('#chart-pass-rate .uplot').waitFor()
        expect(JSON.parse((await page.locator('#chart-pass-rate').getAttribute('data-series'))!)).toEqual([{ agent: 'triage-agent', values: [100] }])
        // The cookie reads, it does not write: a POST from the page without the header is refused.
        const write = await page.evaluate(async () => {
          const response = await fetch('/v1/run.begin', { method: 'POST', body: '{"agent":"x"}', headers: { 'content-type': 'application/json' } })
          return response.status
        })
        expect(write).toBe(401)
        await page.goto(`${url}?token=${TOKEN}#/runs`)
        await expect.poll(ids).toEqual(['r-refund-4', 'r-refund-3', 'r-triage-1', 'r-refund-2', 'r-refund-1'])
        await context.clearCookies()
        browser.errors.length = 0
      })
    })
  })
}
