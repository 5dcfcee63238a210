import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { session, type Session, type Trace } from '../../src/entries/index.js'
import { fileGoldenStore, matchGolden, resolveUpdateMode, type GoldenStore, type UpdateMode } from '../../src/entries/golden.js'
import { resolveDiffOptions } from '../../src/diff/options.js'
import { reconcile } from '../../src/golden/index.js'
import { renderTrace } from '../../src/golden/trace-file.js'
import { renderGolden } from '../../src/golden/index.js'
import { scriptTrace, type ScriptedTurn } from '../helpers/script-trace.js'
import { tempDir } from '../helpers/temp-dir.js'

const PYTHON_GOLDEN = new URL('../../fixtures/reagent-flow-py-0.5/golden/refund-agent.trace.json', import.meta.url)

const refund: ScriptedTurn[] = [
  ['lookup_order', { order_id: '42' }, { amount: 19.99 }],
  ['issue_refund', { order_id: '42', amount: 19.99 }, { ok: true }],
  'Refunded $19.99.',
]
const refundTwice: ScriptedTurn[] = [refund[0]!, refund[1]!, refund[1]!, refund[2]!]

describe('resolveUpdateMode()', () => {
  it.each<[string, Parameters<typeof resolveUpdateMode>[0], UpdateMode]>([
    ['nothing set: write missing goldens', { env: {} }, 'new'],
    ['CI=true', { env: { CI: 'true' } }, 'none'],
    ['CI=1', { env: { CI: '1' } }, 'none'],
    ['CI=false', { env: { CI: 'false' } }, 'new'],
    ['CI=0', { env: { CI: '0' } }, 'new'],
    ['CI empty', { env: { CI: '' } }, 'new'],
    ['REAGENT_UPDATE=all, even in CI', { env: { CI: 'true', REAGENT_UPDATE: 'all' } }, 'all'],
    ['REAGENT_UPDATE=new, even in CI', { env: { CI: 'true', REAGENT_UPDATE: 'new' } }, 'new'],
    ['REAGENT_UPDATE=none', { env: { REAGENT_UPDATE: 'none' } }, 'none'],
    ['REAGENT_UPDATE empty counts as unset', { env: { CI: 'true', REAGENT_UPDATE: '' } }, 'none'],
    ['vitest -u, over REAGENT_UPDATE and CI', { vitestUpdate: 'all', env: { CI: 'true', REAGENT_UPDATE: 'none' } }, 'all'],
    ['vitest update: true', { vitestUpdate: true, env: {} }, 'all'],
    ["vitest's 'new' is its default, not a request: CI still wins", { vitestUpdate: 'new', env: { CI: 'true' } }, 'none'],
    ["vitest's 'none' is its CI default, not a request", { vitestUpdate: 'none', env: {} }, 'new'],
  ])('%s', (_, sources, mode) => {
    expect(resolveUpdateMode(sources)).toBe(mode)
  })

  it('rejects an unknown REAGENT_UPDATE, listing the valid values', () => {
    expect(() => resolveUpdateMode({ env: { REAGENT_UPDATE: 'yes' } })).toThrowError(
      new TypeError('REAGENT_UPDATE="yes" is not an update mode. Use one of: all (rewrite goldens), new (write missing ones), none (never write).'),
    )
  })
})

describe('reconcile()', () => {
  const options = resolveDiffOptions({})
  const recorded = renderGolden(scriptTrace(refund))
  const same = { path: 'g.trace.json', text: recorded.text }
  const other = { path: 'g.trace.json', text: renderGolden(scriptTrace(refundTwice)).text }

  it.each<[string, UpdateMode, typeof same | null, string]>([
    ['missing, all: create', 'all', null, 'write created'],
    ['missing, new: create', 'new', null, 'write created'],
    ['missing, none: fail', 'none', null, 'fail'],
    ['same bytes, all: leave alone', 'all', same, 'write unchanged'],
    ['other behaviour, all: rewrite', 'all', other, 'write updated'],
    ['same behaviour, new: compare and pass', 'new', same, 'compare pass'],
    ['other behaviour, new: compare and fail', 'new', other, 'compare fail'],
    ['same behaviour, none: compare and pass', 'none', same, 'compare pass'],
    ['other behaviour, none: compare and fail', 'none', other, 'compare fail'],
  ])('%s', (_, mode, golden, decision) => {
    const outcome = reconcile(recorded, golden, mode, options)
    const summary =
      outcome.action === 'write' ? `write ${outcome.written}` : outcome.action === 'compare' ? `compare ${outcome.pass ? 'pass' : 'fail'}` : 'fail'
    expect(summary).toBe(decision)
  })

  it('compares with the diff options, so a golden that differs only in what is ignored passes', () => {
    const outcome = reconcile(renderGolden(scriptTrace([...refund.slice(0, 2), 'Done.'])), same, 'none', resolveDiffOptions({ ignore: ['response_text'] }))
    expect(outcome).toMatchObject({ action: 'compare', pass: true })
  })
})

describe('matchGolden()', () => {
  it('writes a missing golden in normal form in mode new, and says so', () => {
    const traceDir = tempDir()
    const trace = scriptTrace(refund, 'refund')
    const path = join(traceDir, 'golden', 'refund.trace.json')
    const result = matchGolden(trace, { traceDir, update: 'new' })
    expect(result).toMatchObject({ pass: true, written: 'created', path, update: 'new', diff: null, expected: null })
    expect(result.message).toBe(`Golden baseline for "refund" written to ${path}. Review and commit it.`)
    expect(readFileSync(path, 'utf8')).toBe(renderTrace(trace, { golden: true }))
  })

  it('fails a missing golden in mode none, telling the user to record it locally, and writes nothing', () => {
    const traceDir = tempDir()
    const path = join(traceDir, 'golden', 'refund.trace.json')
    const result = matchGolden(scriptTrace(refund, 'refund'), { traceDir, update: 'none' })
    expect(result).toMatchObject({ pass: false, written: null, diff: null })
    expect(result.message).toBe(
      `No golden baseline for "refund" at ${path}, and goldens are not written when the update mode is "none" (the default when CI is set). ` +
        `Record it locally (run the tests without CI, or with REAGENT_UPDATE=new) and commit ${path}.`,
    )
    expect(existsSync(path)).toBe(false)
  })

  it('does not rewrite a golden whose content would not change (mode all keeps its mtime), and rewrites byte-identically', async () => {
    const traceDir = tempDir()
    const first = matchGolden(scriptTrace(refund, 'refund'), { traceDir, update: 'all' })
    const bytes = readFileSync(first.path, 'utf8')
    const mtime = statSync(first.path).mtimeMs
    await new Promise((resolve) => setTimeout(resolve, 20))
    const second = matchGolden(scriptTrace(refund, 'refund'), { traceDir, update: 'all' })
    expect(second).toMatchObject({ pass: true, written: 'unchanged' })
    expect(second.message).toBe(`Golden baseline for "refund" at ${first.path} is up to date.`)
    expect(statSync(first.path).mtimeMs).toBe(mtime)
    expect(readFileSync(first.path, 'utf8')).toBe(bytes)
  })

  it('rewrites a golden whose behaviour changed in mode all', () => {
    const traceDir = tempDir()
    matchGolden(scriptTrace(refund, 'refund'), { traceDir, update: 'new' })
    const changed = scriptTrace(refundTwice, 'refund')
    const result = matchGolden(changed, { traceDir, update: 'all' })
    expect(result).toMatchObject({ pass: true, written: 'updated' })
    expect(readFileSync(result.path, 'utf8')).toBe(renderTrace(changed, { golden: true }))
  })

  it('compares with an existing golden in mode new without touching it, and fails with the diff', () => {
    const traceDir = tempDir()
    const { path } = matchGolden(scriptTrace(refund, 'refund'), { traceDir, update: 'new' })
    const bytes = readFileSync(path, 'utf8')
    const result = matchGolden(scriptTrace(refundTwice, 'refund'), { traceDir, update: 'new' })
    expect(result).toMatchObject({ pass: false, written: null })
    expect(result.diff?.changes.map((c) => [c.kind, c.subject, c.path])).toEqual([['added', 'turn', 'turns[2]']])
    expect(result.message).toBe(
      [
        `Trace "refund" does not match its golden baseline (${path}):`,
        '1 difference (strict) · - expected: 3 turns · + actual: 4 turns',
        '',
        '+ Turn 2 (actual)',
        '+   issue_refund({"order_id":"42","amount":19.99})',
        '',
        `If the new behaviour is right, run the tests with REAGENT_UPDATE=all (or vitest -u), then review and commit ${path}.`,
      ].join('\n'),
    )
    expect(readFileSync(path, 'utf8')).toBe(bytes)
  })

  it("passes a run that behaves like reagent-flow 0.5's golden, and leaves the Python file as it is", async () => {
    const traceDir = tempDir()
    mkdirSync(join(traceDir, 'golden'))
    const path = join(traceDir, 'golden', 'refund-agent.trace.json')
    copyFileSync(PYTHON_GOLDEN, path)
    const s = await session('refund-agent', { traceDir, metadata: { suite: 'billing' } }, refundAgent)
    const result = matchGolden(s.trace, { traceDir, update: 'new' })
    expect(result.message).toBe(`Trace "refund-agent" matches its golden baseline (${path}).`)
    expect(result).toMatchObject({ pass: true, written: null })
    expect(readFileSync(path, 'utf8')).toBe(readFileSync(PYTHON_GOLDEN, 'utf8'))
  })

  it('compares redacted forms, as the golden was written', async () => {
    const traceDir = tempDir()
    const record = (key: string) =>
      session('secret', { traceDir, golden: true }, (s) => void s.logLlmCall({ toolCalls: [{ name: 'call_api', arguments: { api_key: key } }] }))
    await record('sk-live-aaaaaaaaaaaaaaaaaaaaaaaa')
    const s = await record('sk-live-bbbbbbbbbbbbbbbbbbbbbbbb')
    expect(matchGolden(s.trace, { traceDir, update: 'none' }).pass).toBe(true)
  })

  it('reads and writes only through the GoldenStore it is given', () => {
    const files = new Map<string, string>()
    const store: GoldenStore = {
      resolvePath: (trace) => `mem:${trace.name}`,
      read: (path) => files.get(path) ?? null,
      save: (path, text) => void files.set(path, text),
      remove: (path) => void files.delete(path),
    }
    const trace: Trace = scriptTrace(refund, 'refund')
    expect(matchGolden(trace, { store, update: 'new' })).toMatchObject({ written: 'created', path: 'mem:refund' })
    expect(files.get('mem:refund')).toBe(renderTrace(trace, { golden: true }))
    expect(fileGoldenStore('x').resolvePath({ name: 'a b' })).toBe(join('x', 'golden', 'a_b.trace.json'))
  })

  it('rejects unknown options and update modes', () => {
    const trace = scriptTrace(refund)
    expect(() => matchGolden(trace, { updat: 'all' } as never)).toThrowError(
      new TypeError('Unknown matchGolden() option "updat". Valid options: mode, args, ignore, traceDir, update, redact, store, runPath.'),
    )
    expect(() => matchGolden(trace, { update: 'always' as UpdateMode })).toThrowError(
      new RangeError('matchGolden() option "update" must be one of "all", "new", "none"; got "always".'),
    )
  })
})

/** The behaviour of fixtures/reagent-flow-py-0.5/golden/refund-agent.trace.json (its model too), with other token counts. */
async function refundAgent(s: Session): Promise<void> {
  const [lookup] = s.logLlmCall({
    messages: [{ role: 'user', content: 'Refund order 42' }],
    toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }],
    model: 'gpt-4o-2024-08-06',
    tokenUsage: { input_tokens: 99, output_tokens: 9 },
  })
  s.logToolResult('lookup_order', { callId: lookup!, result: { order_id: '42', amount: 19.99, eligible: true }, durationMs: 3 })
  s.logLlmCall({ toolCalls: [{ name: 'issue_refund', arguments: { amount: 19.99, order_id: '42' } }], model: 'gpt-4o-2024-08-06' })
  s.logToolResult('issue_refund', { result: { refund_id: 'r_1', ok: true } })
  s.logLlmCall({ responseText: 'Refunded $19.99 for order 42.', model: 'gpt-4o-2024-08-06' })
}
