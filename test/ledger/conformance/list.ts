/** Conformance: run.list's filters, six orders, paging, total and fields. */
import { expect, it } from 'vitest'
import { T0, type StartLedger, type TestLedger } from '../harness.js'

/**
 * Six runs (ids run-0..run-5) built to tell every order apart, ties included:
 *
 *   id     agent session started  status     duration memories grade
 *   run-1  A     s1      T0       completed  5000     m1       pass
 *   run-2  B     s1      T0+1     failed     1000     -        fail
 *   run-3  A     s2      T0+2     active     0        -        -
 *   run-4  B     s2      T0+3     cancelled  5000     m1 m2    -
 *   run-5  C     -       T0+4     completed  300      -        -      goal "Find the refund POLICY"
 *   run-0  C     -       T0+4     completed  300      m3       -
 */
async function sixRuns(ledger: TestLedger): Promise<void> {
  const open = async (runId: string, agent: string, session: string, at: number, goal = 'Refund order 42'): Promise<void> => {
    ledger.clock.seconds = T0 + at
    const reply = await ledger.call('run.begin', { run_id: runId, agent, session_id: session, goal })
    expect(reply.status).toBe(200)
  }
  await open('run-1', 'A', 's1', 0)
  await open('run-2', 'B', 's1', 1)
  await open('run-3', 'A', 's2', 2)
  await open('run-4', 'B', 's2', 3)
  await open('run-5', 'C', '-', 4, 'Find the refund POLICY')
  await open('run-0', 'C', '-', 4)
  const close = async (runId: string, status: string, duration: number, memories: string[]): Promise<void> => {
    expect((await ledger.call('run.complete', { run_id: runId, status, duration_ms: duration, memories_used: memories })).status).toBe(200)
  }
  await close('run-1', 'completed', 5000, ['m1'])
  await close('run-2', 'failed', 1000, [])
  await close('run-4', 'cancelled', 5000, ['m1', 'm2'])
  await close('run-5', 'completed', 300, [])
  await close('run-0', 'completed', 300, ['m3'])
  await ledger.call('run.grade', { run_id: 'run-1', grade: 'pass' })
  await ledger.call('run.grade', { run_id: 'run-2', grade: 'fail' })
}

interface Page {
  ids: string[]
  total: unknown
  next: string | null
}

async function page(ledger: TestLedger, query: Record<string, unknown>): Promise<Page> {
  const reply = await ledger.call<{ runs: Array<{ run_id: string }>; total: unknown; next_cursor: string | null }>('run.list', query)
  expect(reply.status).toBe(200)
  return { ids: reply.body.runs.map((run) => run.run_id), total: reply.body.total, next: reply.body.next_cursor }
}

/** Every page of `query` by cursor, `between(n)` called after the n-th page: the pages' ids, and the totals they answered. */
async function walk(
  ledger: TestLedger,
  query: Record<string, unknown>,
  between?: (n: number) => Promise<void>,
): Promise<{ pages: string[][]; totals: unknown[] }> {
  const pages: string[][] = []
  const totals: unknown[] = []
  let cursor: string | null = ''
  while (cursor !== null) {
    const next: Page = await page(ledger, cursor === '' ? query : { ...query, cursor })
    pages.push(next.ids)
    totals.push(next.total)
    cursor = next.next
    await between?.(pages.length)
    expect(pages.length).toBeLessThan(50)
  }
  return { pages, totals }
}

const cursorOf = (order: string, after: unknown[]): string => Buffer.from(JSON.stringify({ order, after })).toString('base64url')

async function ids(ledger: TestLedger, query: Record<string, unknown>): Promise<{ ids: string[]; total: unknown }> {
  const reply = await ledger.call<{ runs: Array<{ run_id: string }>; total: unknown }>('run.list', query)
  expect(reply.status).toBe(200)
  return { ids: reply.body.runs.map((run) => run.run_id), total: reply.body.total }
}

export function listConformance(start: StartLedger): void {
  it('run.list sorts by each of the six orders, ties broken by started_at then run_id', async () => {
    const ledger = await start()
    await sixRuns(ledger)
    const expected: Record<string, string[]> = {
      started_desc: ['run-5', 'run-0', 'run-4', 'run-3', 'run-2', 'run-1'],
      started_asc: ['run-1', 'run-2', 'run-3', 'run-4', 'run-0', 'run-5'],
      duration_asc: ['run-3', 'run-0', 'run-5', 'run-2', 'run-1', 'run-4'],
      duration_desc: ['run-4', 'run-1', 'run-2', 'run-5', 'run-0', 'run-3'],
      relied_on_asc: ['run-2', 'run-3', 'run-5', 'run-1', 'run-0', 'run-4'],
      relied_on_desc: ['run-4', 'run-0', 'run-1', 'run-5', 'run-3', 'run-2'],
    }
    for (const [order, runs] of Object.entries(expected)) expect({ order, ...(await ids(ledger, { order_by: order })) }).toEqual({ order, ids: runs, total: 6 })
    expect(await ids(ledger, {})).toEqual({ ids: expected.started_desc, total: 6 })
  })

  it('run.list filters by agent, session, status, text, grade and memory activity; "", "*" and "-" mean any', async () => {
    const ledger = await start()
    await sixRuns(ledger)
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ agent: 'A' }, ['run-3', 'run-1']],
      [{ agent: '*' }, ['run-5', 'run-0', 'run-4', 'run-3', 'run-2', 'run-1']],
      [{ agent: '-', session_id: '' }, ['run-5', 'run-0', 'run-4', 'run-3', 'run-2', 'run-1']],
      [{ session_id: 's1' }, ['run-2', 'run-1']],
      [{ status: 'active' }, ['run-3']],
      [{ status: 'cancelled' }, ['run-4']],
      [{ status: 'completed', agent: 'C' }, ['run-5', 'run-0']],
      [{ q: 'policy' }, ['run-5']],
      [{ q: 'RUN-0' }, ['run-0']],
      [{ q: 'b' }, ['run-4', 'run-2']],
      [{ q: 'refund ORDER' }, ['run-0', 'run-4', 'run-3', 'run-2', 'run-1']],
      [{ grade: 'ungraded' }, ['run-5', 'run-0', 'run-4', 'run-3']],
      [{ grade: 'graded' }, ['run-2', 'run-1']],
      [{ grade: 'pass' }, ['run-1']],
      [{ grade: 'fail' }, ['run-2']],
      [{ memory_activity: 'with' }, ['run-0', 'run-4', 'run-1']],
      [{ memory_activity: 'without' }, ['run-5', 'run-3', 'run-2']],
      [{ q: 'nothing like it' }, []],
    ]
    for (const [query, runs] of cases) expect({ query, ...(await ids(ledger, query)) }).toEqual({ query, ids: runs, total: runs.length })
  })

  it('run.list pages with limit and offset; total is null on a full page after the first', async () => {
    const ledger = await start()
    await sixRuns(ledger)
    expect(await ids(ledger, { limit: 2 })).toEqual({ ids: ['run-5', 'run-0'], total: 6 })
    expect(await ids(ledger, { limit: 2, offset: 2 })).toEqual({ ids: ['run-4', 'run-3'], total: null })
    expect(await ids(ledger, { limit: 2, offset: 4 })).toEqual({ ids: ['run-2', 'run-1'], total: null })
    expect(await ids(ledger, { limit: 3, offset: 4 })).toEqual({ ids: ['run-2', 'run-1'], total: 6 })
    expect(await ids(ledger, { limit: 2, offset: 10 })).toEqual({ ids: [], total: 6 })
    expect(await ids(ledger, { limit: 0 })).toEqual({ ids: [], total: 6 })
  })

  it('run.list pages by cursor through each of the six orders: every run once, in order; total on the first page only; next_cursor null on the last', async () => {
    const ledger = await start()
    await sixRuns(ledger)
    const orders = ['started_desc', 'started_asc', 'duration_desc', 'duration_asc', 'relied_on_desc', 'relied_on_asc']
    for (const order of orders) {
      const whole = (await ids(ledger, { order_by: order })).ids
      expect({ order, ...(await walk(ledger, { order_by: order, limit: 2 })) }).toEqual({
        order,
        pages: [whole.slice(0, 2), whole.slice(2, 4), whole.slice(4, 6)],
        totals: [6, null, null],
      })
      expect({ order, ...(await walk(ledger, { order_by: order, limit: 4 })) }).toEqual({
        order,
        pages: [whole.slice(0, 4), whole.slice(4)],
        totals: [6, null],
      })
      expect({ order, ...(await walk(ledger, { order_by: order, limit: 6 })) }).toEqual({ order, pages: [whole], totals: [6] })
    }
    // Filters apply past the cursor as on the first page.
    expect(await walk(ledger, { status: 'completed', limit: 1 })).toEqual({ pages: [['run-5'], ['run-0'], ['run-1']], totals: [3, null, null] })
    expect(await walk(ledger, { q: 'refund order', order_by: 'duration_asc', limit: 2 })).toEqual({
      pages: [['run-3', 'run-0'], ['run-2', 'run-1'], ['run-4']],
      totals: [5, null, null],
    })
    // A cursor names a place, not a run: the page after a run since gone from the filter starts where it was.
    expect(await page(ledger, { cursor: cursorOf('started_desc', [T0 + 3, 'run-4']), status: 'completed' })).toEqual({
      ids: ['run-1'],
      total: null,
      next: null,
    })
    expect(await page(ledger, { order_by: 'duration_asc', cursor: cursorOf('duration_asc', [300, T0 + 4, 'run-0']) })).toEqual({
      ids: ['run-5', 'run-2', 'run-1', 'run-4'],
      total: null,
      next: null,
    })
  })

  it('run.list by cursor neither repeats nor skips a run when newer runs begin and end between pages', async () => {
    const ledger = await start()
    for (let i = 0; i < 6; i++) {
      ledger.clock.seconds = T0 + i
      await ledger.call('run.begin', { run_id: `old-${i}`, agent: 'a', goal: 'g' })
      expect((await ledger.call('run.complete', { run_id: `old-${i}`, status: 'completed', duration_ms: 1000 * (i % 3) })).status).toBe(200)
    }
    for (const order of ['started_desc', 'started_asc', 'duration_desc', 'duration_asc', 'relied_on_desc', 'relied_on_asc']) {
      const before = (await ids(ledger, { order_by: order })).ids
      let added = 0
      const { pages } = await walk(ledger, { order_by: order, limit: 2 }, async (n) => {
        // Newer runs, one active (duration 0, first in duration_asc) and one done, begin after the first two pages.
        if (n > 2) return
        ledger.clock.seconds = T0 + 100 + added
        await ledger.call('run.begin', { run_id: `${order}-new-${++added}`, agent: 'a', goal: 'g' })
        await ledger.call('run.begin', { run_id: `${order}-new-${++added}`, agent: 'a', goal: 'g' })
        await ledger.call('run.complete', { run_id: `${order}-new-${added}`, status: 'completed', duration_ms: 1500 })
      })
      const seen = pages.flat()
      expect({ order, repeated: seen.filter((id, i) => seen.indexOf(id) !== i) }).toEqual({ order, repeated: [] })
      // Every run there before the walk is seen, in its order; the walk ends.
      expect({ order, old: seen.filter((id) => id.startsWith('old-')) }).toEqual({ order, old: before.filter((id) => id.startsWith('old-')) })
    }
  })

  it('run.list refuses a cursor that is not one, one made for another order, and a cursor with an offset (422 naming cursor)', async () => {
    const ledger = await start()
    await sixRuns(ledger)
    const refused = (why: string) => ({
      status: 422,
      body: {
        error: 'invalid_input',
        message: `run.list: cursor ${why}; pass the next_cursor of the page before as it came (and the same order_by), or no cursor for the first page (rule: cursor)`,
        field: 'cursor',
        rule: 'cursor',
      },
    })
    expect(await ledger.call('run.list', { cursor: 'not a cursor!' })).toEqual(refused('is not base64url text'))
    expect(await ledger.call('run.list', { cursor: 'e30' })).toEqual(refused('does not decode to a cursor of run.list'))
    expect(await ledger.call('run.list', { cursor: Buffer.from('{"order":').toString('base64url') })).toEqual(
      refused('does not decode to a cursor of run.list'),
    )
    const tampered: unknown[][] = [
      ['started_desc', [T0]],
      ['started_desc', ['T0', 'run-1']],
      ['started_desc', [T0, '']],
      ['started_desc', [T0, 7]],
      ['started_desc', [T0, 'x'.repeat(257)]],
      ['duration_asc', [T0, 'run-1']],
      ['duration_asc', [-1, T0, 'run-1']],
      ['duration_asc', [1.5, T0, 'run-1']],
    ]
    for (const [order, after] of tampered) {
      expect(await ledger.call('run.list', { order_by: order, cursor: cursorOf(order as string, after as unknown[]) })).toEqual(
        refused('does not decode to a cursor of run.list'),
      )
    }
    const extra = Buffer.from(JSON.stringify({ order: 'started_desc', after: [T0, 'run-1'], admin: true })).toString('base64url')
    expect(await ledger.call('run.list', { cursor: extra })).toEqual(refused('does not decode to a cursor of run.list'))
    const first = await page(ledger, { order_by: 'duration_asc', limit: 2 })
    expect(await ledger.call('run.list', { cursor: first.next })).toEqual(refused('was made for order_by "duration_asc", not "started_desc"'))
    expect(await ledger.call('run.list', { order_by: 'duration_asc', cursor: first.next, offset: 2 })).toEqual({
      status: 422,
      body: {
        error: 'invalid_input',
        message:
          'run.list: cursor and offset go one or the other: a cursor continues after the page it came with, an offset counts from the first run; send offset 0 with a cursor (rule: cursor_or_offset)',
        field: 'cursor',
        rule: 'cursor_or_offset',
      },
    })
    expect(await page(ledger, { order_by: 'duration_asc', cursor: first.next, offset: 0, limit: 2 })).toEqual({
      ids: ['run-5', 'run-2'],
      total: null,
      next: cursorOf('duration_asc', [1000, T0 + 1, 'run-2']),
    })
    expect((await ledger.call('run.list', { cursor: 7 })).body).toMatchObject({ field: 'cursor', rule: 'type' })
  })

  it('run.list caps limit at 200 and refuses an offset past 100,000 or a negative limit (422)', async () => {
    const ledger = await start()
    for (let i = 0; i < 201; i++) await ledger.call('run.begin', { agent: 'a', goal: 'g' })
    const page = await ids(ledger, { limit: 1000 })
    expect([page.ids.length, page.total]).toEqual([200, 201])
    expect(await ledger.call('run.list', { offset: 100_001 })).toEqual({
      status: 422,
      body: { error: 'invalid_input', message: 'run.list: offset must be <= 100000 (rule: maximum)', field: 'offset', rule: 'maximum' },
    })
    expect((await ledger.call('run.list', { offset: 100_000 })).body).toEqual({ runs: [], total: 201, next_cursor: null })
    expect((await ledger.call('run.list', { limit: -1 })).body).toMatchObject({ field: 'limit', rule: 'minimum' })
    expect((await ledger.call('run.list', { order_by: 'newest' })).body).toEqual({
      error: 'invalid_input',
      message:
        'run.list: order_by must be one of "started_desc", "started_asc", "duration_desc", "duration_asc", "relied_on_desc", "relied_on_asc" (rule: enum)',
      field: 'order_by',
      rule: 'enum',
    })
  })

  it('run.list returns only the fields asked for, in that order, and names an unknown field (422)', async () => {
    const ledger = await start()
    await sixRuns(ledger)
    const reply = await ledger.call<{ runs: object[] }>('run.list', { fields: ['status', 'run_id', 'grade'], limit: 2, order_by: 'started_asc' })
    expect(reply.body).toEqual({
      runs: [
        { status: 'completed', run_id: 'run-1', grade: 'pass' },
        { status: 'failed', run_id: 'run-2', grade: 'fail' },
      ],
      total: 6,
      // The cursor names the page's last run by its place in the order, whatever fields the page shows.
      next_cursor: Buffer.from(JSON.stringify({ order: 'started_asc', after: [T0 + 1, 'run-2'] })).toString('base64url'),
    })
    expect(Object.keys(reply.body.runs[0]!)).toEqual(['status', 'run_id', 'grade'])
    expect(await ledger.call('run.list', { fields: ['run_id', 'cost'] })).toEqual({
      status: 422,
      body: {
        error: 'invalid_input',
        message:
          'run.list: fields[1] "cost" is not a run field; run fields: run_id, agent, user_id, session_id, goal, user_request, expected_outcome, environment, model, consumer, status, started_at, completed_at, duration_ms, final_response, confidence, grade, grade_source, grade_reason, grade_ref, graded_at, memories_used, memories_written, metadata, budget_usd, budget_seconds (rule: enum)',
        field: 'fields[1]',
        rule: 'enum',
      },
    })
  })

  it('run.list of a namespace with no runs is empty, and never shows another namespace', async () => {
    const ledger = await start()
    await sixRuns(ledger)
    expect((await ledger.call('run.list', { namespace: 'elsewhere' })).body).toEqual({ runs: [], total: 0, next_cursor: null })
    await ledger.call('run.begin', { namespace: 'elsewhere', agent: 'x', goal: 'g', run_id: 'run-9' })
    expect(await ids(ledger, { namespace: 'elsewhere' })).toEqual({ ids: ['run-9'], total: 1 })
    expect((await ids(ledger, {})).total).toBe(6)
    expect((await ledger.call('run.get', { run_id: 'run-9' })).body).toMatchObject({ found: false })
  })
}
