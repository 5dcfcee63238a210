import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { instrumentOpenAI } from '../../src/entries/openai.js'
import { scriptedFetch } from '../../src/entries/fake.js'
import { AgentAssertionError, assertGoalReached, loadChain, loadTrace, session, type GoalJudgeInput, type Session } from '../../src/entries/index.js'
import { formatTranscript } from '../../src/report/transcript.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { tempDir } from '../helpers/temp-dir.js'
import { captureWarnings } from '../helpers/warnings.js'
import { runCli } from '../cli/run-cli.js'

const GOAL = 'Refund order 42'

/** The refund agent: looks the order up, refunds it (or fails to), answers. */
function refundAgent(s: Session, declined = false): string {
  s.logLlmCall({
    messages: [{ role: 'user', content: 'Refund order 42, please.' }],
    toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42' }, callId: 'c1' }],
    model: 'gpt-4o',
    tokenUsage: { input_tokens: 120, output_tokens: 12 },
  })
  s.logToolResult('issue_refund', declined ? { callId: 'c1', error: new Error('card declined') } : { callId: 'c1', result: { refund_id: 'r_42' } })
  const answer = declined ? 'Sorry, I could not refund order 42.' : 'Refunded order 42.'
  s.logLlmCall({ responseText: answer, model: 'gpt-4o', tokenUsage: { input_tokens: 150, output_tokens: 9 } })
  return answer
}

async function refundRun(traceDir: string, { declined = false, goal = true } = {}): Promise<Session<string>> {
  return session('refund-agent', { traceDir, ...(goal ? { metadata: { goal: GOAL } } : {}) }, (s) => refundAgent(s, declined))
}

describe('assertGoalReached()', () => {
  it("runs a sync judge and records its verdict, reason and own run as the run's grade, in memory and in the run's file", async () => {
    const traceDir = tempDir()
    const s = await refundRun(traceDir)
    const judgement = await assertGoalReached(s, ({ answer }) => ({ reached: answer === 'Refunded order 42.', reason: 'the answer confirms the refund' }))

    const grade = { grade: 'pass', source: 'goal judge', reason: 'the answer confirms the refund', ref: judgement.judge.traceId, graded_at: expect.any(Number) }
    expect(judgement).toMatchObject({ goal: GOAL, reached: true, reason: 'the answer confirms the refund', grade })
    expect(s.trace.grade).toEqual(grade)
    expect(loadTrace(s.path!).grade).toEqual(s.trace.grade)
    // The judge's own run, beside the judged one: its child, in the role of its judge.
    expect(readdirSync(traceDir).sort()).toEqual(['refund-agent.trace.json', 'refund-agent___judge.trace.json'])
    const judge = loadTrace(join(traceDir, 'refund-agent___judge.trace.json'))
    expect(judge).toMatchObject({ name: 'refund-agent > judge', trace_id: judgement.judge.traceId, status: 'completed', parent_trace_id: s.traceId, turns: [] })
    expect(judge.metadata).toEqual({ reagent_role: 'judge', judged_trace_id: s.traceId, judged_name: 'refund-agent', goal: GOAL })
    // The judged run is what the agent did, and nothing more.
    expect(s.trace.turns).toHaveLength(2)
  })

  it("records an async judge's model call in the judge's own run, as any call is recorded", async () => {
    const traceDir = tempDir()
    const s = await refundRun(traceDir)
    const fetch = scriptedFetch([{ text: '{"reached": true, "reason": "refund r_42 was issued and confirmed"}', usage: { inputTokens: 90, outputTokens: 14 } }])
    const openai = instrumentOpenAI(new OpenAI({ fetch, apiKey: 'sk-test', maxRetries: 0 }))

    const judgement = await assertGoalReached(s, async ({ goal, transcript }) => {
      const completion = await openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'Did the agent reach the goal? Answer as JSON: {"reached": boolean, "reason": string}.' },
          { role: 'user', content: `Goal: ${goal}\n\n${transcript}` },
        ],
      })
      return JSON.parse(completion.choices[0]!.message.content ?? '{}') as { reached: boolean; reason: string }
    })

    expect(judgement.reason).toBe('refund r_42 was issued and confirmed')
    const [judgeTurn, ...more] = judgement.judge.trace.turns
    expect(more).toEqual([])
    expect(judgeTurn!.llm_call).toMatchObject({
      model: 'gpt-4o-mini',
      provider: 'openai',
      response_text: '{"reached": true, "reason": "refund r_42 was issued and confirmed"}',
    })
    expect(judgeTurn!.llm_call.messages![1]).toEqual({ role: 'user', content: `Goal: ${GOAL}\n\n${formatTranscript(s.trace)}` })
    expect(loadTrace(judgement.judge.path!).turns).toHaveLength(1)
    expect(s.trace.turns.map((turn) => turn.llm_call.model)).toEqual(['gpt-4o', 'gpt-4o'])
  })

  it('gives the judge the goal, the final answer, a transcript without timings or ids, the trace and its own session', async () => {
    const s = await refundRun(tempDir(), { declined: true })
    let given: GoalJudgeInput | undefined
    await assertGoalReached(s, (input) => {
      given = input
      return true
    })
    expect(given).toMatchObject({ goal: GOAL, answer: 'Sorry, I could not refund order 42.', trace: s.trace })
    expect(given!.session.name).toBe('refund-agent > judge')
    expect(given!.transcript).toBe(
      [
        'user: Refund order 42, please.',
        'turn 0: called issue_refund({"order_id":"42"})',
        '  issue_refund failed: Error: card declined',
        'turn 1: answered “Sorry, I could not refund order 42.”',
        'the run completed',
      ].join('\n'),
    )
  })

  it('throws AgentAssertionError with the reason and the agent stack trace when the goal was not reached, and records the grade as fail', async () => {
    const s = await refundRun(tempDir(), { declined: true })
    const failure = await assertGoalReached(s, () => ({ reached: false, reason: 'the card was declined and nothing was refunded' })).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(AgentAssertionError)
    const { message, assertion } = failure as AgentAssertionError
    expect(assertion).toBe('The agent did not reach its goal "Refund order 42": the card was declined and nothing was refunded')
    expect(message.split('\n').slice(0, 2)).toEqual([assertion, ''])
    expect(message).toContain(`\nPROBABLE CAUSE: judged by "goal judge" in its own run ${s.trace.grade!.ref} (`)
    expect(message).toContain('\n                issue_refund({"order_id":"42"}) failed in turn 0: Error: card declined')
    expect(s.trace.grade).toMatchObject({ grade: 'fail', reason: 'the card was declined and nothing was refunded' })
    expect(loadTrace(s.path!).grade?.grade).toBe('fail')
  })

  it('takes true or false as a verdict without a reason', async () => {
    const s = await refundRun(tempDir())
    expect((await assertGoalReached(s, () => true)).grade).toMatchObject({ grade: 'pass', reason: null })
    const failure = (await assertGoalReached(s, async () => false).catch((error: unknown) => error)) as AgentAssertionError
    expect(failure.assertion).toBe('The agent did not reach its goal "Refund order 42" (the judge gave no reason)')
  })

  it('judges the goal option over metadata.goal, names the judge by source, and needs one of them', async () => {
    const s = await refundRun(tempDir(), { goal: false })
    let goal = ''
    await assertGoalReached(
      s,
      (input) => {
        goal = input.goal
        return true
      },
      { goal: 'Refund in full', source: 'refund rules' },
    )
    expect(goal).toBe('Refund in full')
    expect(s.trace.grade?.source).toBe('refund rules')
    await expect(assertGoalReached(s, () => true)).rejects.toThrow(
      new TypeError(
        `assertGoalReached(): "refund-agent" has no goal to judge: pass { goal: 'Refund order 42' }, or open its session with { metadata: { goal } }.`,
      ),
    )
  })

  it("rejects with the judge's own error, unchanged: the judge's run is failed and no grade is written", async () => {
    const s = await refundRun(tempDir())
    const outage = new Error('judge model unavailable (503)')
    await expect(assertGoalReached(s, async () => Promise.reject(outage))).rejects.toBe(outage)
    expect(s.trace.grade).toBeUndefined()
    expect(loadTrace(s.path!).grade).toBeUndefined()
    const judge = loadTrace(join(s.traceDir, 'refund-agent___judge.trace.json'))
    expect(judge.status).toBe('failed')
    expect(judge.error).toMatchObject({ name: 'Error', message: 'judge model unavailable (503)' })
  })

  it('rejects bad arguments in one line each: a verdict, a judge, options, an open session', async () => {
    const s = await refundRun(tempDir())
    await expect(assertGoalReached(s, (() => 'yes') as never)).rejects.toThrow(
      new TypeError('assertGoalReached(): the judge must return true, false or { reached: boolean, reason?: string }, got "yes" (string).'),
    )
    await expect(assertGoalReached(s, (() => ({ reached: 'yes' })) as never)).rejects.toThrow(
      new TypeError('assertGoalReached(): the judge must return true, false or { reached: boolean, reason?: string }, got an object with key "reached".'),
    )
    await expect(assertGoalReached(s, 'judge' as never)).rejects.toThrow(
      new TypeError(
        'assertGoalReached(): judge must be a function that returns true, false or { reached, reason }, or a judge({ model }), got "judge" (string).',
      ),
    )
    await expect(assertGoalReached(s, () => true, { gaol: GOAL } as never)).rejects.toThrow(
      new TypeError('assertGoalReached(): unknown option "gaol". Valid options: goal, source.'),
    )
    await expect(assertGoalReached(s, () => true, { goal: '  ' })).rejects.toThrow(
      new TypeError('assertGoalReached(): options.goal must be a non-empty string, got "  " (string).'),
    )
    await session('still-open', { save: false, metadata: { goal: GOAL } }, async (open) => {
      await expect(assertGoalReached(open, () => true)).rejects.toThrow(
        new TypeError('assertGoalReached(): the session "still-open" is still open: judge its goal once session() has resolved.'),
      )
    })
  })

  it("judges outside any enclosing session: the judge run is the judged run's child, not the suite's", async () => {
    const s = await refundRun(tempDir())
    const outer = await session('suite', { save: false }, async () => (await assertGoalReached(s, () => true)).judge)
    expect(outer.children).toEqual([])
    expect(outer.output.trace.parent_trace_id).toBe(s.traceId)
  })

  it('writes the grade redacted as the run was written, and keeps it whole in memory', async () => {
    const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz123456'
    const reason = `refunded, then called the payments API with key ${key}`
    const redacted = await refundRun(tempDir())
    await assertGoalReached(redacted, () => ({ reached: true, reason }))
    expect(redacted.trace.grade?.reason).toBe(reason)
    expect(loadTrace(redacted.path!).grade!.reason).toBe('refunded, then called the payments API with key [REDACTED]')

    const plain = await session('refund-agent', { traceDir: tempDir(), metadata: { goal: GOAL }, redact: false }, (s) => refundAgent(s))
    await assertGoalReached(plain, () => ({ reached: true, reason }))
    expect(loadTrace(plain.path!).grade!.reason).toBe(reason)
  })

  it('keeps the judge in memory for a run that was not written, a chain node and a plain trace, and the grade where the run is', async () => {
    const unsaved = await session('unsaved', { save: false, metadata: { goal: GOAL } }, (s) => refundAgent(s))
    const judgement = await assertGoalReached(unsaved, () => true)
    expect([judgement.judge.path, unsaved.trace.grade?.grade]).toEqual([undefined, 'pass'])
    // A chain node read from a file: the grade goes into that file, the judge stays in memory.
    const saved = await refundRun(tempDir())
    const node = loadChain(saved.trace.name, { traceDir: saved.traceDir })
    const judged = await assertGoalReached(node, () => false).catch((error: unknown) => error)
    expect(judged).toBeInstanceOf(AgentAssertionError)
    expect(loadTrace(node.path).grade?.grade).toBe('fail')
    expect(readdirSync(saved.traceDir)).toEqual(['refund-agent.trace.json'])
    const trace = buildTrace('loaded', [{ text: 'Refunded order 42.' }], { metadata: { goal: GOAL } })
    await assertGoalReached(trace, ({ answer }) => answer === 'Refunded order 42.')
    expect(trace.grade?.grade).toBe('pass')
  })

  it('warns and keeps the grade in memory when the run file cannot be rewritten', async () => {
    const warnings = captureWarnings()
    const s = await refundRun(tempDir())
    rmSync(s.path!)
    await assertGoalReached(s, () => true)
    expect(s.trace.grade?.grade).toBe('pass')
    const [warning] = await warnings.seen()
    expect(warning?.code).toBe('REAGENT_WRITE')
    expect(warning?.message).toMatch(
      /^reagent-flow: the judge's verdict on "refund-agent" could not be written to .*refund-agent\.trace\.json \(No trace file at .*\); it is kept in memory on trace\.grade\.$/,
    )
  })

  it('shows the verdict in reagent-flow get and list --grade', async () => {
    const cwd = tempDir()
    const s = await refundRun(join(cwd, '.reagent'), { declined: true })
    await assertGoalReached(s, () => ({ reached: false, reason: 'nothing was refunded' })).catch(() => undefined)
    const { stdout } = runCli(['get', 'refund-agent'], cwd)
    expect(stdout).toContain('\ngoal        Refund order 42\nstatus      completed · 1 of 1 tool call failed\n')
    expect(stdout).toMatch(
      new RegExp(`\\ngrade       fail · goal judge · \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC · nothing was refunded · ${s.trace.grade!.ref}\\n`),
    )
    expect(runCli(['list', '--grade', 'fail'], cwd).stdout).toContain('\n1 run matches · showing 1–1\n')
  })
})
