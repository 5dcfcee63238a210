/**
 * The golden file's form (decision note 049): every model call's messages in
 * full, whatever form the run it came from was stored in, and a golden
 * written in an older form (`messages_base`) read as the same behaviour.
 */
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderGolden } from '../../src/golden/index.js'
import { loadTrace, session, type Session, type Trace } from '../../src/entries/index.js'
import { matchGolden, normalizeTrace } from '../../src/entries/golden.js'
import { renderTrace, saveTrace } from '../../src/golden/trace-file.js'
import { encodeMessages } from '../../src/trace/messages.js'
import { goldenFileChunks, joinChunks } from '../../src/trace/trace-text.js'
import { runCli } from '../cli/run-cli.js'
import { codeBlocks } from '../helpers/doc-examples.js'
import { tempDir } from '../helpers/temp-dir.js'

/** An agent whose second call sends the first call's conversation again, with the tool's answer: what every agent loop does. */
function refundAgent(answer = 'Refunded $19.99.'): (s: Session) => void {
  return (s) => {
    const messages = [{ role: 'user', content: 'Refund order 42' }]
    const [lookup] = s.logLlmCall({ messages: [...messages], toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }], model: 'gpt-4o' })
    s.logToolResult('lookup_order', { callId: lookup!, result: { amount: 19.99 } })
    messages.push({ role: 'tool', content: '{"amount":19.99}' })
    s.logLlmCall({ messages: [...messages], responseText: answer, model: 'gpt-4o' })
  }
}

const SECOND_CALL = [
  { role: 'user', content: 'Refund order 42' },
  { role: 'tool', content: '{"amount":19.99}' },
]

/** Each call's messages as a golden's text holds them, and whether it says messages_base. */
function callsOf(text: string): Array<[unknown, boolean]> {
  const { turns } = JSON.parse(text) as { turns: Array<{ llm_call: Record<string, unknown> }> }
  return turns.map(({ llm_call }) => [llm_call.messages, 'messages_base' in llm_call])
}

/** The golden of `trace` as versions before decision note 049 wrote it: a call that repeats an earlier call's messages holds only its new ones and `messages_base`. */
function inOlderForm(trace: Trace): string {
  const normal = normalizeTrace(trace)
  const turns = normal.turns.map((turn, at) => ({ ...turn, llm_call: encodeMessages(normal.turns, at) }))
  return joinChunks(goldenFileChunks({ ...normal, turns }))
}

describe('the golden file', () => {
  it("holds every call's messages in full when the run file stores them as messages_base, whichever writer writes it", async () => {
    const traceDir = tempDir()
    const s = await session('refund', { traceDir, golden: true }, refundAgent())
    const runText = readFileSync(s.path!, 'utf8')
    // The run file shares the first call's message (a storage form of its own, decision note 016)...
    expect(callsOf(runText)[1]).toEqual([[{ role: 'tool', content: '{"amount":19.99}' }], true])
    // ...its golden does not, whether the trace is the one in memory, the file loaded, or the file's JSON as it is.
    const golden = readFileSync(join(traceDir, 'golden', 'refund.trace.json'), 'utf8')
    expect(callsOf(golden)).toEqual([
      [[{ role: 'user', content: 'Refund order 42' }], false],
      [SECOND_CALL, false],
    ])
    expect(renderGolden(loadTrace(s.path!)).text).toBe(golden)
    expect(renderGolden(JSON.parse(runText) as Trace).text).toBe(golden)
    expect(renderTrace(JSON.parse(runText) as Trace, { golden: true })).toBe(golden)
    const saved = saveTrace(JSON.parse(runText) as Trace, { traceDir: join(traceDir, 'saved'), golden: true })
    expect(readFileSync(saved, 'utf8')).toBe(golden)

    // reagent-flow approve reads the run file and writes the same bytes.
    const cwd = tempDir()
    writeFileSync(join(cwd, 'refund.trace.json'), runText)
    expect(runCli(['approve', '--dir', '.', 'refund'], cwd)).toMatchObject({ code: 0, stderr: '' })
    expect(readFileSync(join(cwd, 'golden', 'refund.trace.json'), 'utf8')).toBe(golden)
  })

  it('is shown in docs/goldens.md ("The golden file") byte for byte as the agent above writes it', async () => {
    const s = await session('refund', { save: false }, refundAgent())
    const shown = codeBlocks({ file: 'docs/goldens.md', id: 'goldens' }).filter((block) => block.lang === 'json' && block.code.includes('"trace_id": "golden"'))
    expect(shown.map((block) => block.code)).toEqual([renderGolden(s.trace).text])
  })

  it('matches a golden written in the older form, untouched under update modes new and none, and rewritten under all as a format change', async () => {
    const traceDir = tempDir()
    const s = await session('refund', { traceDir }, refundAgent())
    const path = join(traceDir, 'golden', 'refund.trace.json')
    const older = inOlderForm(s.trace)
    expect(callsOf(older)[1]).toEqual([[{ role: 'tool', content: '{"amount":19.99}' }], true])
    saveTrace(s.trace, { traceDir, golden: true })
    writeFileSync(path, older)
    utimesSync(path, new Date(1_000_000), new Date(1_000_000))
    for (const update of ['new', 'none'] as const) {
      const result = matchGolden(s.trace, { traceDir, update })
      expect(result).toMatchObject({ pass: true, written: null, outcome: 'matched' })
      expect(result.expected?.turns[1]?.llm_call.messages).toEqual(SECOND_CALL)
      expect(result.message).toBe(`Trace "refund" matches its golden baseline (${path}).`)
    }
    expect(readFileSync(path, 'utf8')).toBe(older)
    expect(statSync(path).mtimeMs).toBe(1_000_000)

    const result = matchGolden(s.trace, { traceDir, update: 'all' })
    expect(result).toMatchObject({ pass: true, written: 'reformatted', outcome: 'reformatted', diff: null })
    expect(result.message).toBe(
      `Golden baseline for "refund" at ${path}: golden format updated (update mode "all"): the same behaviour, rewritten from an older form in the current one. Review and commit it.`,
    )
    expect(readFileSync(path, 'utf8')).toBe(renderGolden(s.trace).text)
    expect(matchGolden(s.trace, { traceDir, update: 'all' })).toMatchObject({ written: 'unchanged', outcome: 'unchanged' })

    // A behaviour that changed is told apart from it, and its rewrite is an update, not a format change.
    writeFileSync(path, older)
    const changed = await session('refund', { save: false }, refundAgent('Refund refused.'))
    expect(matchGolden(changed.trace, { traceDir, update: 'new' })).toMatchObject({ pass: false, outcome: 'failed' })
    const updated = matchGolden(changed.trace, { traceDir, update: 'all' })
    expect(updated).toMatchObject({ pass: true, written: 'updated', outcome: 'updated' })
    expect(updated.message).toBe(`Golden baseline for "refund" rewritten at ${path} (update mode "all"). Review and commit it.`)
    expect(readFileSync(path, 'utf8')).toBe(renderGolden(changed.trace).text)
  })

  it('approve rewrites a golden of the older form as reformatted, naming the format change', async () => {
    const cwd = tempDir()
    const s = await session('refund', { traceDir: join(cwd, '.reagent') }, refundAgent())
    const path = saveTrace(s.trace, { traceDir: join(cwd, '.reagent'), golden: true })
    writeFileSync(path, inOlderForm(s.trace))
    expect(runCli(['approve', 'refund'], cwd)).toEqual({
      code: 0,
      stdout:
        `reformatted  ${join('.reagent', 'golden', 'refund.trace.json')}\n` +
        '  golden format updated: the same behaviour, rewritten from an older form in the current one\n' +
        '1 golden: 0 created, 0 updated, 1 reformatted, 0 unchanged\n',
      stderr: '',
    })
    expect(readFileSync(path, 'utf8')).toBe(renderGolden(s.trace).text)
  })
})
