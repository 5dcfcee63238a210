/**
 * The trace file of a session with a journal is assembled from the turn text
 * the journal made as it took each turn; a turn changed since is serialised
 * again. Its bytes are exactly those the writer makes of the finished trace
 * in one go (renderTrace), whatever the run did.
 */
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { noteOnTurn } from '../../src/adapter-support/index.js'
import { loadTrace, session, type Session } from '../../src/entries/index.js'
import { internals } from '../../src/session/internals.js'
import { journalPath, readJournal, renderTrace } from '../../src/storage/index.js'
import { tempDir } from '../helpers/temp-dir.js'
import { captureWarnings } from '../helpers/warnings.js'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Longer than the journal's flush delay (40 ms): the turns logged before it are taken. */
const TAKEN = 70

const SECRET = 'sk-proj-Zq8vN3xR7tL2mK9pW4yB6cD1fG5hJ0sA8eU3iO7'
const BEARER = `Bearer ${SECRET}`

const system = { role: 'system', content: `You are careful. Key: ${SECRET}` }
const user = { role: 'user', content: `Refund order 42, my password is hunter2 and my key ${SECRET}` }

/**
 * An agent that does everything a turn can go through after the journal took
 * it: results that arrive with their turn and after it, an injected fault, a
 * result no call asked for, a note an adapter adds; a secret in every field;
 * calls that resend the conversation (written with messages_base).
 */
async function agent(s: Session): Promise<void> {
  s.trace.metadata['api_key'] = SECRET
  s.trace.metadata['note'] = `deploy with ${SECRET}`
  const [lookup] = s.logLlmCall({
    messages: [system, user],
    toolCalls: [{ name: 'lookup_order', arguments: { id: '42', authorization: BEARER, query: `key ${SECRET}` } }],
    responseText: `Looking it up with ${SECRET}`,
    model: `gpt-4o ${SECRET}`,
    provider: `openai ${SECRET}`,
    stopReason: `tool_calls ${SECRET}`,
    tokenUsage: { prompt_tokens: 10, completion_tokens: 5 },
  })
  // Logged with its turn: the journal takes both at once.
  s.logToolResult('lookup_order', { callId: lookup!, result: { status: 'shipped', token: SECRET, text: `{"password": "${SECRET}"}` } })
  await sleep(TAKEN)

  const assistant = { role: 'assistant', content: `calling lookup_order ${SECRET}` }
  const tool = { role: 'tool', content: `{"status":"shipped","api_key":"${SECRET}"}` }
  const [refund, email] = s.logLlmCall({
    messages: [system, user, assistant, tool],
    toolCalls: [
      { name: 'refund', arguments: JSON.stringify({ id: '42', card: SECRET }) },
      { name: 'email', arguments: { to: 'ada@example.com', body: `refunded, ${SECRET}` } },
    ],
    model: 'gpt-4o',
  })
  s.logToolResult('email', { callId: email!, result: `sent ${SECRET}` })
  await sleep(TAKEN)
  // After the journal took turn 1: a late result, an injected fault, a result no call asked for.
  s.logToolResult('refund', { callId: refund!, error: `ToolFaultError: card ${SECRET} declined`, injected: true })
  s.logToolResult('audit', { callId: 'not-a-call', result: { secret: SECRET } })

  s.logLlmCall({ messages: [system, user, assistant, tool, { role: 'assistant', content: 'Refunded.' }], responseText: `Done. ${SECRET}`, model: 'gpt-4o' })
  await sleep(TAKEN)
  // After the journal took turn 2: a note an adapter keeps on it.
  noteOnTurn(s, 'guardrails', { name: 'pii', output: SECRET })
  // Never taken before the close: the close's flush takes it.
  s.logLlmCall({ messages: null, responseText: `bye ${SECRET}`, error: new Error(`quota for ${SECRET}`) })
}

type Ending = 'completed' | 'failed' | 'cancelled' | 'interrupted'

async function run(dir: string, ending: Ending, journal: boolean): Promise<Session> {
  let opened: Session | undefined
  const done = session(`agent-${ending}`, { traceDir: dir, journal }, async (s) => {
    opened = s
    await agent(s)
    if (ending === 'failed') throw new Error(`payment service down (${SECRET})`)
    if (ending === 'cancelled') throw Object.assign(new Error('stopped by the user'), { name: 'AbortError' })
    if (ending === 'interrupted') s[internals].closeNow('interrupted', `the process is exiting (${SECRET})`)
  })
  await done.catch(() => undefined)
  return opened!
}

describe('a trace file assembled from the turns its journal took', () => {
  afterEach(() => vi.restoreAllMocks())

  it.each(['completed', 'failed', 'cancelled', 'interrupted'] as const)(
    'holds exactly what the writer makes of the finished trace, %s, with late results, marks, notes, history and secrets',
    async (ending) => {
      const dir = tempDir()
      const warnings = captureWarnings()
      const s = await run(dir, ending, true)
      const written = readFileSync(s.path!, 'utf8')

      expect(s.trace.status).toBe(ending)
      expect(written).toBe(renderTrace(s.trace))
      expect(written).not.toContain(SECRET)
      expect(written).toContain('"messages_base": {')
      expect(JSON.parse(written).turns.map((turn: Record<string, unknown>) => Object.keys(turn).filter((key) => !['index', 'llm_call'].includes(key)))).toEqual(
        [
          ['tool_results', 'duration_ms'],
          ['tool_results', 'duration_ms', 'injected', 'injected_results', 'unmatched_results'],
          ['tool_results', 'duration_ms', 'guardrails'],
          ['tool_results', 'duration_ms'],
        ],
      )
      expect((await warnings.seen()).map((warning) => warning.code)).toContain('REAGENT_ORPHAN_RESULT')
      if (ending !== 'completed') {
        // The journal kept to resume from holds the same run, as redacted, but for the note added after its turn was taken.
        const { guardrails: _note, ...noted } = loadTrace(s.path!).turns[2]!
        const kept = readJournal(journalPath(s.path!, s.traceId)).trace.turns
        expect(kept).toEqual([...loadTrace(s.path!).turns.slice(0, 2), noted, loadTrace(s.path!).turns[3]])
      }
    },
  )

  it('with journal: false, writes the same bytes', async () => {
    const dir = tempDir()
    const s = await run(dir, 'completed', false)
    expect(readFileSync(s.path!, 'utf8')).toBe(renderTrace(s.trace))
  })

  it('with redact: false, holds the turns as recorded', async () => {
    const dir = tempDir()
    const s = await session('plain', { traceDir: dir, redact: false }, agent)
    const written = readFileSync(s.path!, 'utf8')
    expect(written).toBe(renderTrace(s.trace, { redact: false }))
    expect(written).toContain(SECRET)
  })

  it('serialises at the close only the turns changed after the journal took them, cut out of the text of their flush', async () => {
    const dir = tempDir()
    const late = [0, 4, 9]
    const turnsSerialised: number[] = []
    const s = await session('ten', { traceDir: dir }, async (s) => {
      const ids = []
      for (let i = 0; i < 10; i++) {
        const [id] = s.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: `query ${i}`, password: SECRET } }] })
        ids.push(id!)
        if (!late.includes(i)) s.logToolResult('search', { callId: id!, result: { hits: i } })
      }
      await sleep(TAKEN)
      for (const i of late) s.logToolResult('search', { callId: ids[i]!, result: { hits: i, token: SECRET } })
      // From here to the file: every pretty-printed serialisation of turns.
      const stringify = JSON.stringify
      vi.spyOn(JSON, 'stringify').mockImplementation((value: unknown, replacer?: unknown, space?: unknown) => {
        const items = (value as { t?: unknown } | null)?.t
        if (space === 2 && Array.isArray(items)) turnsSerialised.push(...items.map((turn) => (turn as { index: number }).index))
        return stringify(value, replacer as undefined, space as undefined)
      })
    })
    vi.restoreAllMocks()
    expect(turnsSerialised).toEqual(late)
    expect(readFileSync(s.path!, 'utf8')).toBe(renderTrace(s.trace))
  })
})
