import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AgentAssertionError, AmbiguousTraceError, TraceNotFoundError, loadChain, session, type Session } from '../src/entries/index.js'
import { ChainNode } from '../src/chain/load-chain.js'
import { scanTraceDirectory } from '../src/storage/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { captureWarnings } from './helpers/warnings.js'

const PY_FIXTURES = join(import.meta.dirname, '../fixtures/reagent-flow-py-0.5')

function callTool(s: Session, name: string, args: Record<string, unknown>): void {
  const [callId] = s.logLlmCall({ toolCalls: [{ name, arguments: args }] })
  s.logToolResult(name, { callId: callId!, result: 'ok' })
}

/**
 * planner ─┬─ researcher ── fact-checker
 *          └─ writer
 * and an unrelated run, other-agent.
 */
async function recordTeam(traceDir: string): Promise<{ planner: Session; researcher: Session; checker: Session; writer: Session }> {
  let researcher!: Session
  let checker!: Session
  let writer!: Session
  const planner = await session('planner', { traceDir }, async (s) => {
    callTool(s, 'delegate', { to: 'researcher' })
    researcher = await session('researcher', { traceDir, handoffContext: { topic: 'refunds' } }, async (r) => {
      callTool(r, 'search', { q: 'refund policy' })
      checker = await session('fact-checker', { traceDir }, (c) => callTool(c, 'verify', { claim: '30 days' }))
      callTool(r, 'search', { q: 'refund window' })
    })
    writer = await session('writer', { traceDir }, (w) => callTool(w, 'draft', { words: 200 }))
  })
  await session('other-agent', { traceDir }, (s) => callTool(s, 'noop', {}))
  return { planner, researcher, checker, writer }
}

describe('loadChain()', () => {
  it('returns the trace with its children, grandchildren and siblings as a tree, in start order', async () => {
    const traceDir = tempDir()
    const team = await recordTeam(traceDir)
    const chain = loadChain('planner', { traceDir })

    expect(chain).toBeInstanceOf(ChainNode)
    expect(chain.trace).toEqual(team.planner.trace)
    expect(chain.path).toBe(join(traceDir, 'planner.trace.json'))
    expect(chain.children.map((node) => node.name)).toEqual(['researcher', 'writer'])
    expect(chain.children[0]!.children.map((node) => node.name)).toEqual(['fact-checker'])
    expect(chain.flatten().map((node) => [node.name, node.depth, node.parent?.name])).toEqual([
      ['planner', 0, undefined],
      ['researcher', 1, 'planner'],
      ['fact-checker', 2, 'researcher'],
      ['writer', 1, 'planner'],
    ])
    expect(chain.get('researcher').trace.handoff_context).toEqual({ topic: 'refunds' })
    expect(chain.get('fact-checker').trace.parent_trace_id).toBe(team.researcher.traceId)
  })

  it('makes "the sub-agent called tool X" one line', async () => {
    const traceDir = tempDir()
    await recordTeam(traceDir)
    const chain = loadChain('planner', { traceDir })

    expect(chain.get('researcher').toolNames()).toEqual(['search', 'search'])
    expect(
      chain
        .get('researcher')
        .toolCalls('search')
        .map((call) => call.arguments),
    ).toEqual([{ q: 'refund policy' }, { q: 'refund window' }])
    expect(chain.flatten().flatMap((node) => node.toolNames())).toEqual(['delegate', 'search', 'search', 'verify', 'draft'])
  })

  it('accepts a trace_id or a trace name, and looks for a trace_id first', async () => {
    const traceDir = tempDir()
    const team = await recordTeam(traceDir)
    // A trace named like another trace's id: the id wins.
    await session(team.writer.traceId, { traceDir }, () => undefined)

    expect(
      loadChain(team.researcher.traceId, { traceDir })
        .flatten()
        .map((node) => node.name),
    ).toEqual(['researcher', 'fact-checker'])
    expect(loadChain(team.writer.traceId, { traceDir }).name).toBe('writer')
    expect(loadChain('writer', { traceDir }).children).toEqual([])
  })

  it('finds nodes by name or id, and get() fails like an assertion, listing the agents of the chain', async () => {
    const traceDir = tempDir()
    const team = await recordTeam(traceDir)
    const chain = loadChain('planner', { traceDir })

    expect(chain.find(team.checker.traceId)?.name).toBe('fact-checker')
    expect(chain.find('other-agent')).toBeUndefined()
    expect(() => chain.get('billing')).toThrowError(AgentAssertionError)
    expect(() => chain.get('billing')).toThrowError(
      'The chain of "planner" has no agent named "billing" (nor a trace with that id). ' +
        'Its agents: planner, researcher (under planner), fact-checker (under researcher), writer (under planner). ' +
        "Check the name the sub-agent's session() was given, and that it ran inside this agent.",
    )
  })

  it('throws TraceNotFoundError naming the directory searched and the traces in it', async () => {
    const traceDir = tempDir()
    await session('planner', { traceDir }, () => undefined)
    await session('writer', { traceDir }, () => undefined)

    let error: unknown
    try {
      loadChain('plannr', { traceDir })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(TraceNotFoundError)
    expect(error).toMatchObject({ path: join(traceDir, '*.trace.json'), traceName: 'plannr' })
    expect((error as Error).message).toBe(
      `No trace file at ${join(traceDir, '*.trace.json')}. None of the 2 traces in ${traceDir} has the trace_id or name "plannr" (names: planner, writer). ` +
        `A session's trace is written when session() closes; check the name and traceDir.`,
    )
    const missing = join(traceDir, 'nope')
    expect(() => loadChain('planner', { traceDir: missing })).toThrowError(
      `No trace file at ${join(missing, '*.trace.json')}. The directory ${missing} does not exist: ` +
        `record the sessions with { traceDir: ${JSON.stringify(missing)} }, or check traceDir (default .reagent).`,
    )
  })

  it('refuses a name that matches several trace files', async () => {
    const traceDir = tempDir()
    await session('planner', { traceDir }, () => undefined)
    copyFileSync(join(traceDir, 'planner.trace.json'), join(traceDir, 'planner-copy.trace.json'))

    expect(() => loadChain('planner', { traceDir })).toThrowError(AmbiguousTraceError)
    expect(() => loadChain('planner', { traceDir })).toThrowError(
      `"planner" matches 2 trace files (${join(traceDir, 'planner-copy.trace.json')}, ${join(traceDir, 'planner.trace.json')}). ` +
        `Pass the trace_id of the one you mean instead, or remove the copies.`,
    )
  })

  it('skips damaged and foreign files with one warning, and ignores temporary files, other files and golden/', async () => {
    const warnings = captureWarnings()
    const traceDir = tempDir()
    await recordTeam(traceDir)
    writeFileSync(join(traceDir, 'broken.trace.json'), '{"trace_id": "x", "na')
    writeFileSync(join(traceDir, 'foreign.trace.json'), JSON.stringify({ hello: 'world' }))
    writeFileSync(join(traceDir, 'bad-turn.trace.json'), JSON.stringify({ ...loadChain('writer', { traceDir }).trace, turns: [{ index: 0 }] }))
    writeFileSync(join(traceDir, '.planner.trace.json.123.1.tmp'), 'half a fi')
    writeFileSync(join(traceDir, 'notes.json'), 'not a trace either')
    mkdirSync(join(traceDir, 'golden'))
    writeFileSync(join(traceDir, 'golden', 'planner.trace.json'), 'not read')
    const seenBefore = (await warnings.seen()).length

    expect(
      loadChain('planner', { traceDir })
        .flatten()
        .map((node) => node.name),
    ).toEqual(['planner', 'researcher', 'fact-checker', 'writer'])
    const seen = (await warnings.seen()).slice(seenBefore)
    expect(seen).toEqual([
      {
        code: 'REAGENT_READ',
        message:
          `reagent-flow: loadChain: skipped 3 files in ${traceDir} that are not a readable reagent-flow trace: ` +
          `${join(traceDir, 'bad-turn.trace.json')}: at turns[0]: missing required key "llm_call" (rule: required); ` +
          `${join(traceDir, 'broken.trace.json')}: the file is not JSON (Unterminated string in JSON at position 21) (rule: json); ` +
          `${join(traceDir, 'foreign.trace.json')}: at the top level: missing required key "trace_id" (rule: required). ` +
          `A trace in them, and the traces below it, are not in the chain; loadTrace(path) shows the full error.`,
      },
    ])
  })

  it('reads whole only the traces of the chain: a file damaged in its turns is skipped when linked, and not even opened past its ends otherwise', async () => {
    const warnings = captureWarnings()
    const traceDir = tempDir()
    await recordTeam(traceDir)
    // The top-level fields at both ends stay valid; only a turn is broken.
    const damage = (name: string): void => {
      const path = join(traceDir, `${name}.trace.json`)
      writeFileSync(path, readFileSync(path, 'utf8').replace('"index": 0', '"index": "first"'))
    }
    damage('fact-checker')
    damage('other-agent')
    const seenBefore = (await warnings.seen()).length

    expect(
      loadChain('planner', { traceDir })
        .flatten()
        .map((node) => node.name),
    ).toEqual(['planner', 'researcher', 'writer'])
    expect((await warnings.seen()).slice(seenBefore)).toEqual([
      {
        code: 'REAGENT_READ',
        message:
          `reagent-flow: loadChain: skipped 1 file in ${traceDir} that is not a readable reagent-flow trace: ` +
          `${join(traceDir, 'fact-checker.trace.json')}: at turns[0].index: must be integer (rule: type). ` +
          `A trace in them, and the traces below it, are not in the chain; loadTrace(path) shows the full error.`,
      },
    ])
  })

  it('does not loop on damaged parent links that form a cycle', () => {
    const traceDir = tempDir()
    const trace = (id: string, parent: string | null) => ({
      trace_id: id,
      name: id,
      turns: [],
      metadata: {},
      started_at: 1,
      ended_at: 2,
      format_version: '1',
      parent_trace_id: parent,
      handoff_context: null,
    })
    writeFileSync(join(traceDir, 'a.trace.json'), JSON.stringify(trace('a', 'b')))
    writeFileSync(join(traceDir, 'b.trace.json'), JSON.stringify(trace('b', 'a')))
    writeFileSync(join(traceDir, 'c.trace.json'), JSON.stringify(trace('c', 'c')))

    expect(
      loadChain('a', { traceDir })
        .flatten()
        .map((node) => node.name),
    ).toEqual(['a', 'b'])
    expect(loadChain('c', { traceDir }).children).toEqual([])
  })

  it('reads chains written by reagent-flow 0.5 (Python)', () => {
    const traceDir = tempDir()
    for (const name of ['planner', 'researcher']) copyFileSync(join(PY_FIXTURES, `${name}.trace.json`), join(traceDir, `${name}.trace.json`))

    const chain = loadChain('planner', { traceDir })
    expect(chain.flatten().map((node) => node.name)).toEqual(['planner', 'researcher'])
    expect(chain.get('researcher').trace.handoff_context).toEqual({ topic: 'llm testing', depth: 2, sources: ['a', 'b'] })
    expect(chain.toolNames()).toEqual(['delegate'])
  })

  it('rejects a missing id and unknown options with a TypeError that says what is valid', () => {
    expect(() => loadChain('')).toThrowError(new TypeError('loadChain() needs a closed Session, or a trace_id or trace name (a non-empty string), got "".'))
    expect(() => loadChain('x', { tracedir: 'y' } as never)).toThrowError(new TypeError('Unknown loadChain() option "tracedir". Valid options: traceDir.'))
  })
})

describe('scanTraceDirectory()', () => {
  it('reports a directory that does not exist instead of throwing', () => {
    expect(scanTraceDirectory(join(tempDir(), 'missing'))).toEqual({ exists: false, traces: [], skipped: [] })
  })
})
