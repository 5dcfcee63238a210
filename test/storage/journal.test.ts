/**
 * The journal: what a session appends while it records, how a reader sees
 * an open, a kept and an abandoned journal, and what sweeping a directory
 * recovers and cleans up.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace, session } from '../../src/entries/index.js'
import { readJournal, scanTraceDirectory, sweepDirectory } from '../../src/storage/index.js'
import { tempDir } from '../helpers/temp-dir.js'
import { captureWarnings } from '../helpers/warnings.js'
import { runCli } from '../cli/run-cli.js'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
const journalsIn = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.journal.jsonl'))

/** A journal as a process that died (pid 999999999, which does not exist) would have left it. */
function abandonedJournal(dir: string, name: string, traceId: string, lines: object[]): string {
  const path = join(dir, `${name}.${traceId}.journal.jsonl`)
  const open = {
    journal: 1,
    kind: 'open',
    writer: { pid: 999_999_999, thread: 0, host: hostname() },
    trace: {
      trace_id: traceId,
      name,
      turns: [],
      metadata: {},
      started_at: 1_700_000_000.5,
      ended_at: null,
      format_version: '1',
      parent_trace_id: null,
      handoff_context: null,
      status: 'active',
      error: null,
    },
  }
  writeFileSync(path, `${[open, ...lines].map((line) => JSON.stringify(line)).join('\n')}\n`)
  return path
}

const turn = (index: number, tool: string) => ({
  kind: 'turn',
  turn: {
    index,
    llm_call: {
      messages: null,
      response_text: null,
      tool_calls: [{ name: tool, arguments: { n: index }, call_id: `c${index}`, timestamp: 1_700_000_001.5 }],
      model: 'gpt-4o',
      token_usage: null,
      timestamp: 1_700_000_001.5,
    },
    tool_results: [],
    duration_ms: 5,
  },
})
const result = (index: number) => ({
  kind: 'result',
  turn: index,
  result: { call_id: `c${index}`, result: { ok: index }, error: null, duration_ms: 3 },
  duration_ms: 9,
})

describe('a session while it records', () => {
  it('appends each turn to its journal within 40 ms, and reads back as an active run', async () => {
    const traceDir = tempDir()
    await session('journalled', { traceDir }, async (s) => {
      const [journal] = journalsIn(traceDir)
      expect(journal).toBe(`journalled.${s.traceId}.journal.jsonl`)
      const [id] = s.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: 'a' } }], model: 'gpt-4o' })
      s.logToolResult('search', { result: { hits: 2 }, callId: id! })
      await sleep(80)
      const read = readJournal(join(traceDir, journal!))
      expect(read.isLive).toBe(true)
      expect(read.trace.status).toBe('active')
      expect(read.trace.ended_at).toBeNull()
      expect(read.trace.turns).toEqual(s.trace.turns)
      // The directory shows the open run in place of the file of an earlier one.
      expect(scanTraceDirectory(traceDir).traces.map((t) => [t.path, t.fields.status])).toEqual([[join(traceDir, journal!), 'active']])
    })
  })

  it('reads back the marks results put on their turn, once, whether they reached it with the turn or after it', async () => {
    const traceDir = tempDir()
    await session('marked', { traceDir }, async (s) => {
      const [journal] = journalsIn(traceDir)
      const [, refund] = s.logLlmCall({
        toolCalls: [
          { name: 'lookup', arguments: { id: '42' } },
          { name: 'refund', arguments: { id: '42' } },
        ],
      })
      // Flushed with the turn: a result no call asked for, kept under unmatched_results.
      s.logToolResult('audit', { result: 'noted', callId: 'not-a-call' })
      await sleep(80)
      // Flushed after the turn: a result an injected fault produced.
      s.logToolResult('refund', { callId: refund!, error: 'ToolFaultError: card declined', injected: true })
      await sleep(80)

      expect(s.trace.turns[0]).toMatchObject({ unmatched_results: [{ call_id: 'not-a-call', name: 'audit' }], injected: true, injected_results: [refund] })
      expect(readJournal(join(traceDir, journal!)).trace.turns).toEqual(s.trace.turns)
    })
  })

  it('removes the journal of a run that completed', async () => {
    const traceDir = tempDir()
    await session('done', { traceDir }, (s) => void s.logLlmCall({ responseText: 'ok' }))
    expect(readdirSync(traceDir)).toEqual(['done.trace.json'])
  })

  it('keeps, closed, the journal of a run that failed, until a later run of its name completes', async () => {
    const traceDir = tempDir()
    await expect(
      session('flaky', { traceDir }, (s) => {
        s.logLlmCall({ toolCalls: [{ name: 'charge', arguments: { amount: 5 } }] })
        throw new Error('card declined')
      }),
    ).rejects.toThrow('card declined')
    const [kept] = journalsIn(traceDir)
    const read = readJournal(join(traceDir, kept!))
    expect(read.closed).toMatchObject({ kind: 'close', status: 'failed', error: { name: 'Error', message: 'card declined' } })
    expect(read.trace.status).toBe('failed')
    expect(read.trace.turns).toHaveLength(1)
    await session('flaky', { traceDir }, (s) => void s.logLlmCall({ responseText: 'charged' }))
    expect(readdirSync(traceDir)).toEqual(['flaky.trace.json'])
  })

  it('does not write a journal with journal: false, nor anything with save: false', async () => {
    const traceDir = tempDir()
    await session('no-journal', { traceDir, journal: false }, () => expect(readdirSync(traceDir)).toEqual([]))
    await session('no-files', { traceDir, save: false }, () => expect(readdirSync(traceDir)).toEqual(['no-journal.trace.json']))
    expect(readdirSync(traceDir)).toEqual(['no-journal.trace.json'])
  })

  it('writes its journal with the secrets redacted, as the trace', async () => {
    const traceDir = tempDir()
    await session('secretive', { traceDir }, async (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'login', arguments: { password: 'hunter2', user: 'ada' } }] })
      await sleep(80)
      const text = readFileSync(join(traceDir, journalsIn(traceDir)[0]!), 'utf8')
      expect(text).not.toContain('hunter2')
      expect(text).toContain('"password":"[REDACTED]","user":"ada"')
    })
  })
})

describe('a journal whose writer is gone', () => {
  it('reads as an interrupted run with every turn and result that reached it', () => {
    const dir = tempDir()
    const path = abandonedJournal(dir, 'crashed', '01KCRASHEDCRASHEDCRASHED00', [turn(0, 'search'), result(0), turn(1, 'fetch')])
    utimesSync(path, new Date(1_700_000_010_000), new Date(1_700_000_010_000))
    const { trace, isLive, closed } = readJournal(path)
    expect([isLive, closed]).toEqual([false, undefined])
    expect(trace).toMatchObject({ status: 'interrupted', interruption_reason: 'process 999999999 exited before the session closed', ended_at: 1_700_000_010 })
    expect(trace.turns.map((t) => [t.llm_call.tool_calls[0]!.name, t.tool_results.length, t.duration_ms])).toEqual([
      ['search', 1, 9],
      ['fetch', 0, 5],
    ])
  })

  it('ignores a last line cut short by the crash', () => {
    const dir = tempDir()
    const path = abandonedJournal(dir, 'cut', '01KC0TC0TC0TC0TC0TC0TC0T00', [turn(0, 'search')])
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"kind":"result","turn":0,"res`)
    expect(readJournal(path).trace.turns).toHaveLength(1)
  })

  it('is written out as the trace file by the next sweep, then kept closed, so loadTrace reads it', () => {
    const dir = tempDir()
    const path = abandonedJournal(dir, 'crashed', '01KCRASHEDCRASHEDCRASHED00', [turn(0, 'search'), result(0)])
    expect(loadTrace(join(dir, 'crashed.trace.json'))).toMatchObject({ trace_id: '01KCRASHEDCRASHEDCRASHED00', status: 'interrupted' })
    expect(readJournal(path).closed).toMatchObject({ status: 'interrupted', interruption_reason: 'process 999999999 exited before the session closed' })
    expect(readFileSync(path, 'utf8').endsWith('}\n')).toBe(true)
  })

  it('does not replace the file of a run that started later', async () => {
    const dir = tempDir()
    await session('crashed', { traceDir: dir }, (s) => void s.logLlmCall({ responseText: 'a later run' }))
    abandonedJournal(dir, 'crashed', '01KCRASHEDCRASHEDCRASHED00', [turn(0, 'search')])
    sweepDirectory(dir)
    expect(loadTrace(join(dir, 'crashed.trace.json')).turns[0]!.llm_call.response_text).toBe('a later run')
    // That later run completed: the interrupted run's journal is not worth keeping.
    sweepDirectory(dir)
    expect(journalsIn(dir)).toEqual([])
  })

  it('stands in for its run when the directory cannot be written', () => {
    const dir = tempDir()
    abandonedJournal(dir, 'stuck', '01KSTVCKSTVCKSTVCKSTVCK000', [turn(0, 'search')])
    // The trace file's name is taken by a directory: the recovery cannot write it.
    mkdirSync(join(dir, 'stuck.trace.json'))
    const scan = scanTraceDirectory(dir)
    expect(scan.traces.map((t) => [t.fields.name, t.fields.status])).toEqual([['stuck', 'interrupted']])
  })
})

describe('a journal with a record of the wrong type', () => {
  const damaged = [
    ['a turn that is not an object', { kind: 'turn', turn: 'abc' }, 'its "turn" is not an object'],
    ['a model call that is not an object', { kind: 'turn', turn: { ...turn(1, 'x').turn, llm_call: 7 } }, 'its turn.llm_call is not an object'],
    ['a result whose turn is not a number', { kind: 'result', turn: 'one', result: { call_id: 'c1' }, duration_ms: 1 }, 'its "turn" is not a whole number'],
    [
      'a close record with an unknown status',
      { kind: 'close', status: 'done', ended_at: 1 },
      'its "status" is not completed, failed, cancelled or interrupted',
    ],
  ] as const

  it.each(damaged)('(%s) is read up to that record, with a warning naming the file and the line', async (_, record, problem) => {
    const dir = tempDir()
    const warnings = captureWarnings()
    const path = abandonedJournal(dir, 'tampered', '01KTAMPEREDTAMPEREDTAMPE00', [turn(0, 'search'), result(0), record, turn(2, 'later'), result(2)])
    const read = readJournal(path)
    expect(read.trace.status).toBe('interrupted')
    expect(read.trace.turns.map((t) => t.llm_call.tool_calls[0]!.name)).toEqual(['search'])
    expect((await warnings.seen()).map((w) => [w.code, w.message])).toEqual([
      [
        'REAGENT_READ',
        `reagent-flow: the journal ${path} has a "${record.kind}" record of the wrong type at line 4 (${problem}); the run is read up to the line before it. ` +
          'Delete the journal to forget the run, or fix the line.',
      ],
    ])
  })

  it('stays listed, validated and shown as the interrupted run it records, and is recovered once', () => {
    const dir = tempDir()
    const path = abandonedJournal(dir, 'tampered', '01KTAMPEREDTAMPEREDTAMPE00', [turn(0, 'search'), result(0), { kind: 'turn', turn: 'abc' }])
    const listed = runCli(['list', '--dir', dir, '--json'], dir)
    expect((JSON.parse(listed.stdout) as { runs: unknown[] }).runs).toMatchObject([{ name: 'tampered', status: 'interrupted', turns: 1 }])
    expect(listed.stderr).toContain(`the journal ${path} has a "turn" record of the wrong type at line 4`)
    expect(runCli(['validate', '--dir', dir], dir).stdout).toBe('✓ 1 file checked: 1 valid, 0 invalid\n')
    expect(runCli(['show', 'tampered', '--dir', dir], dir).code).toBe(0)
    // The recovery's close record, after the damaged line, still closes the journal.
    expect(readJournal(path).closed).toMatchObject({ status: 'interrupted' })
  })
})

describe('commands that read runs', () => {
  it('see a run whose process died before it ever wrote a file: validate checks the trace it recovers', () => {
    const dir = tempDir()
    abandonedJournal(dir, 'first-run', '01KF1RSTRVNF1RSTRVNF1RST00', [turn(0, 'search'), result(0)])
    const { code, stdout } = runCli(['validate', '--dir', dir], dir)
    expect([code, stdout]).toEqual([0, '✓ 1 file checked: 1 valid, 0 invalid\n'])
    expect(loadTrace(join(dir, 'first-run.trace.json')).status).toBe('interrupted')
  })
})

describe('sweeping a directory', () => {
  it('removes temporary files of writers that are gone, and leaves those of live ones', () => {
    const dir = tempDir()
    writeFileSync(join(dir, '.x.trace.json.999999999-0-0123456789ab.tmp'), 'half')
    writeFileSync(join(dir, `.y.trace.json.${process.pid}-0-0123456789ab.tmp`), 'being written')
    sweepDirectory(dir)
    expect(readdirSync(dir)).toEqual([`.y.trace.json.${process.pid}-0-0123456789ab.tmp`])
  })

  it('happens when a session first opens in a directory', async () => {
    const dir = tempDir()
    abandonedJournal(dir, 'crashed', '01KCRASHEDCRASHEDCRASHED00', [turn(0, 'search')])
    await session('other', { traceDir: dir }, () => expect(existsSync(join(dir, 'crashed.trace.json'))).toBe(true))
  })
})
