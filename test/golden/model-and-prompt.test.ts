import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Session, type Message, type Trace } from '../../src/entries/index.js'
import { matchGolden, type MatchGoldenOptions } from '../../src/entries/golden.js'
import { tempDir } from '../helpers/temp-dir.js'

const PROMPT = [
  'You are the support agent of ACME.',
  'Be polite and brief.',
  'Never refund more than $50 without a manager.',
  'Always look up the order first.',
  'Answer in English.',
].join('\n')

interface Run {
  model?: string | null
  system?: string | null
  answer?: string
}

/** A refund agent's run: one call that looks the order up, one that answers, both with `model` and the system prompt. */
function refundRun({ model = 'gpt-4o-mini', system = PROMPT, answer = 'Refunded $19.99 for order 42.' }: Run = {}): Trace {
  const s = new Session('refund-agent', { save: false })
  const messages = (...rest: Message[]): Message[] => [{ role: 'system', content: system ?? '' }, ...rest]
  const user: Message = { role: 'user', content: 'Please refund order 42.' }
  const [lookup] = s.logLlmCall({
    toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }],
    ...(model === null ? {} : { model }),
    ...(system === null ? {} : { messages: messages(user) }),
  })
  s.logToolResult('lookup_order', { callId: lookup!, result: { amount: 19.99 } })
  s.logLlmCall({
    responseText: answer,
    ...(model === null ? {} : { model }),
    ...(system === null ? {} : { messages: messages(user, { role: 'tool', content: '{"amount":19.99}' }) }),
  })
  return { ...s.trace, status: 'completed', ended_at: s.trace.started_at }
}

function goldenOf(run: Trace, options: MatchGoldenOptions = {}): { traceDir: string; path: string; bytes: string } {
  const traceDir = tempDir()
  const { path } = matchGolden(run, { traceDir, update: 'new', ...options })
  return { traceDir, path, bytes: readFileSync(path, 'utf8') }
}

const acceptHint = (path: string): string =>
  `If the new behaviour is right, run the tests with REAGENT_UPDATE=all (or vitest -u), then review and commit ${path}.`

describe('goldens compare the model and the system prompt', () => {
  it('fails a long answer changed by one word, showing that word with its context, not two cut lines', () => {
    const sentence = (i: number): string => `Sentence ${i} of the answer explains the refund policy.`
    const answer = Array.from({ length: 15 }, (_, i) => sentence(i)).join(' ')
    expect(answer.length).toBe(799)
    const { traceDir, path } = goldenOf(refundRun({ answer }))
    const result = matchGolden(
      refundRun({ answer: answer.replace('Sentence 7 of the answer explains the refund', 'Sentence 7 of the answer explains the return') }),
      {
        traceDir,
        update: 'new',
      },
    )
    expect(result.pass).toBe(false)
    expect(result.message).toBe(
      [
        `Trace "refund-agent" does not match its golden baseline (${path}):`,
        '1 difference (strict) · - expected: 2 turns · + actual: 2 turns',
        '',
        'Turn 1 (expected) ↔ Turn 1 (actual)',
        '  ~ response_text:',
        '      …(62 words)… policy. Sentence 7 of the answer explains the [-refund-]{+return+} policy. Sentence 8',
        '      of the answer explains the …(56 words)…',
        '',
        acceptHint(path),
      ].join('\n'),
    )
  })

  it('fails a changed system prompt, showing the change word by word, once for the run', () => {
    const { traceDir, path, bytes } = goldenOf(refundRun())
    const result = matchGolden(refundRun({ system: PROMPT.replace('Be polite and brief.', 'Be polite and thorough.') }), { traceDir, update: 'new' })
    expect(result.pass).toBe(false)
    expect(result.message).toBe(
      [
        `Trace "refund-agent" does not match its golden baseline (${path}):`,
        '1 difference (strict) · - expected: 2 turns · + actual: 2 turns',
        '',
        'Turn 0 (expected) ↔ Turn 0 (actual)',
        '  ~ system_prompt:',
        '        You are the support agent of ACME.',
        '      ~ Be polite and [-brief-]{+thorough+}.',
        '        Never refund more than $50 without a manager.',
        '        Always look up the order first.',
        '        Answer in English.',
        '',
        acceptHint(path),
      ].join('\n'),
    )
    expect(result.diff?.changes).toEqual([
      {
        kind: 'changed',
        subject: 'system_prompt',
        turn: { expected: 0, actual: 0 },
        path: 'turns[0].llm_call.messages',
        expected: PROMPT,
        actual: PROMPT.replace('brief', 'thorough'),
      },
    ])
    expect(readFileSync(path, 'utf8')).toBe(bytes)
  })

  it('fails a changed model', () => {
    const { traceDir, path } = goldenOf(refundRun())
    const result = matchGolden(refundRun({ model: 'gpt-4o' }), { traceDir, update: 'new' })
    expect(result.message).toBe(
      [
        `Trace "refund-agent" does not match its golden baseline (${path}):`,
        '1 difference (strict) · - expected: 2 turns · + actual: 2 turns',
        '',
        'Turn 0 (expected) ↔ Turn 0 (actual)',
        '  ~ model: "gpt-4o-mini" → "gpt-4o"',
        '',
        acceptHint(path),
      ].join('\n'),
    )
  })

  it('fails a system prompt that was added, showing it in full', () => {
    const { traceDir, path } = goldenOf(refundRun({ system: '' }))
    const result = matchGolden(refundRun(), { traceDir, update: 'new' })
    expect(result.message).toBe(
      [
        `Trace "refund-agent" does not match its golden baseline (${path}):`,
        '1 difference (strict) · - expected: 2 turns · + actual: 2 turns',
        '',
        'Turn 0 (expected) ↔ Turn 0 (actual)',
        '  + system_prompt:',
        ...PROMPT.split('\n').map((line) => `      ${line}`),
        '',
        acceptHint(path),
      ].join('\n'),
    )
  })

  it("passes both with ignore: ['model', 'system_prompt']", () => {
    const { traceDir } = goldenOf(refundRun())
    const changed = refundRun({ model: 'gpt-4o', system: 'You are a pirate.' })
    expect(matchGolden(changed, { traceDir, update: 'new', ignore: ['model', 'system_prompt'] })).toMatchObject({ pass: true, outcome: 'matched' })
    expect(matchGolden(changed, { traceDir, update: 'new', ignore: ['model'] })).toMatchObject({ pass: false, outcome: 'failed' })
    expect(matchGolden(changed, { traceDir, update: 'new', ignore: ['system_prompt'] })).toMatchObject({ pass: false, outcome: 'failed' })
  })
})

describe('a golden older than the comparison (its calls record no model and no messages)', () => {
  /** A golden as it was written before: the same behaviour, with neither the model nor the messages. */
  function oldGolden(): { traceDir: string; path: string; bytes: string } {
    return goldenOf(refundRun({ model: null, system: null }))
  }

  it('passes, and under update mode "new" records them into the golden and says so', () => {
    const { traceDir, path, bytes } = oldGolden()
    const run = refundRun()
    const result = matchGolden(run, { traceDir, update: 'new' })
    expect(result).toMatchObject({ pass: true, written: 'updated', outcome: 'updated' })
    expect(result.message).toBe(
      `Golden baseline for "refund-agent" at ${path} updated: model and system prompt recorded ` +
        '(the golden predates comparing them; they are compared from now on). Review and commit it.',
    )
    const upgraded = readFileSync(path, 'utf8')
    expect(upgraded).not.toBe(bytes)
    // Written as a golden recorded today would be: the run's own golden, byte for byte.
    expect(upgraded).toBe(goldenOf(run).bytes)
    // From now on a changed prompt fails.
    expect(matchGolden(refundRun({ system: 'You are a pirate.' }), { traceDir, update: 'new' }).pass).toBe(false)
    expect(matchGolden(run, { traceDir, update: 'new' })).toMatchObject({ pass: true, written: null, outcome: 'matched' })
  })

  it('records them under update mode "all" too, and says so', () => {
    const { traceDir, path } = oldGolden()
    const result = matchGolden(refundRun(), { traceDir, update: 'all' })
    expect(result).toMatchObject({ pass: true, written: 'updated' })
    expect(result.message).toBe(
      `Golden baseline for "refund-agent" at ${path} updated: model and system prompt recorded ` +
        '(the golden predates comparing them; they are compared from now on). Review and commit it.',
    )
    expect(JSON.parse(readFileSync(path, 'utf8')).turns[0].llm_call.model).toBe('gpt-4o-mini')
  })

  it('passes under update mode "none" (CI) without writing, and says how to record them', () => {
    const { traceDir, path, bytes } = oldGolden()
    const result = matchGolden(refundRun(), { traceDir, update: 'none' })
    expect(result).toMatchObject({ pass: true, written: null, outcome: 'matched' })
    expect(result.message).toBe(
      `Trace "refund-agent" matches its golden baseline (${path}). The golden predates comparing the model and system prompt of each call, ` +
        `which it does not record; goldens are not written when the update mode is "none": run the tests locally (or with REAGENT_UPDATE=new) to record them, and commit ${path}.`,
    )
    expect(readFileSync(path, 'utf8')).toBe(bytes)
  })

  it('records only what it lacks: an old golden with its model but no messages gets the messages', () => {
    const { traceDir, path } = goldenOf(refundRun({ system: null }))
    const result = matchGolden(refundRun(), { traceDir, update: 'new' })
    expect(result.message).toContain('updated: system prompt recorded (the golden predates')
    expect(JSON.parse(readFileSync(path, 'utf8')).turns[0].llm_call.messages[0]).toEqual({ role: 'system', content: PROMPT })
  })

  it('is not upgraded when the run differs otherwise, nor for what the options ignore', () => {
    const { traceDir, path, bytes } = oldGolden()
    expect(matchGolden(refundRun({ answer: 'No refund.' }), { traceDir, update: 'new' })).toMatchObject({ pass: false, written: null })
    expect(matchGolden(refundRun(), { traceDir, update: 'new', ignore: ['model', 'system_prompt'] })).toMatchObject({ pass: true, written: null })
    expect(readFileSync(path, 'utf8')).toBe(bytes)
  })

  it('keeps the other accepted variants when one is upgraded', () => {
    const { traceDir, path } = oldGolden()
    const other = refundRun({ model: null, system: null, answer: 'Refund issued.' })
    const file = JSON.parse(readFileSync(path, 'utf8'))
    const second = JSON.parse(readFileSync(goldenOf(other).path, 'utf8'))
    writeFileSync(path, `${JSON.stringify({ ...file, variants: [second] }, null, 2)}\n`)
    const result = matchGolden(refundRun({ answer: 'Refund issued.' }), { traceDir, update: 'new' })
    expect(result).toMatchObject({ pass: true, written: 'updated' })
    const written = JSON.parse(readFileSync(path, 'utf8'))
    const models = [written, ...written.variants].map((variant: Trace) => variant.turns[1]!.llm_call.model)
    expect(models.sort()).toEqual(['gpt-4o-mini', null])
  })
})
