import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { session, type Trace } from '../../src/entries/index.js'
import { normalizeTrace } from '../../src/entries/golden.js'
import { fromOtlp, toOtlp } from '../../src/entries/otel.js'
import { toolSetFor } from '../../src/adapter-support/offered-tools.js'
import { toolSetOf, type ToolDefinitionInput } from '../../src/trace/tool-sets.js'
import { toolsOffered } from '../../src/trace/tools-offered.js'
import { validateTrace } from '../../src/trace/validate.js'
import { readJournal } from '../../src/storage/index.js'
import { inOrder, startCannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { toolSetId } from '../helpers/tool-set-id.js'
import { json, openaiClient } from '../adapters/openai/helpers.js'

const SEARCH = {
  description: 'Search the docs.',
  kind: 'function',
  name: 'search',
  parameters: { properties: { q: { type: 'string' } }, type: 'object' },
} as const

function ask(client: OpenAI, description: string): Promise<unknown> {
  return client.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'Find it.' }],
    tools: [{ type: 'function', function: { name: 'search', description, parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
  })
}

describe('a set of tools offered', () => {
  it('gets the same id whatever the order of the tools and of their keys, and another id when a description changes', () => {
    const a: ToolDefinitionInput = { name: 'a', kind: 'function', description: 'A.', parameters: { type: 'object', properties: { x: { type: 'string' } } } }
    const b: ToolDefinitionInput = { kind: 'provider', name: 'web_search' }
    const one = toolSetOf([a, b])
    const other = toolSetOf([b, { parameters: { properties: { x: { type: 'string' } }, type: 'object' }, description: 'A.', kind: 'function', name: 'a' }])

    expect(other).toEqual(one)
    expect(one.id).toBe(toolSetId(one.tools))
    expect(one.id).toMatch(/^ts_[0-9a-f]{12}$/)
    expect(toolSetOf([{ ...a, description: 'A, reworded.' }, b]).id).not.toBe(one.id)
  })

  it('keeps a schema that is not JSON Schema as given, and never throws on one JSON cannot hold', () => {
    const circular: Record<string, unknown> = { type: 'object' }
    circular['self'] = circular
    const set = toolSetOf([
      { name: 'grammar', kind: 'function', parameters: 'start: "a"+' },
      { name: 'loop', kind: 'function', parameters: circular, result: { type: 'string', check: () => true } },
    ])

    expect(set.tools).toEqual([
      { description: null, kind: 'function', name: 'grammar', parameters: { $given: 'start: "a"+' } },
      {
        description: null,
        kind: 'function',
        name: 'loop',
        parameters: { self: '[Circular]', type: 'object' },
        result: { check: '[Function: check]', type: 'string' },
      },
    ])
  })

  it('is read once per list of tools: the same array again costs no reading, a list changed in place is read again', () => {
    const read = (tool: unknown): ToolDefinitionInput => {
      reads += 1
      return { name: String(tool), kind: 'function' }
    }
    let reads = 0
    const list = ['a', 'b']
    const first = toolSetFor({ list, read })
    expect(toolSetFor({ list, read })).toBe(first)
    expect(reads).toBe(2)

    list.push('c')
    expect(toolSetFor({ list, read })?.tools.map((tool) => tool.name)).toEqual(['a', 'b', 'c'])
    expect(reads).toBe(5)
    expect(toolSetFor({ list: [], read })).toBeUndefined()
  })

  it('is known again by its text when an SDK builds a new list of the same wire data for every call', () => {
    const read = (tool: unknown): ToolDefinitionInput => {
      reads += 1
      return { name: (tool as { name: string }).name, kind: 'function' }
    }
    let reads = 0
    const first = toolSetFor({ list: [{ name: 'x' }, { name: 'y' }], read, isWireData: true })
    expect(toolSetFor({ list: [{ name: 'x' }, { name: 'y' }], read, isWireData: true })).toBe(first)
    expect(reads).toBe(2)
    // Not wire data (a LangChain tool's zod schema says less in its text than its JSON Schema does): read again.
    expect(toolSetFor({ list: [{ name: 'x' }, { name: 'y' }], read })).toEqual(first)
    expect(reads).toBe(4)
  })
})

describe('toolsOffered(trace)', () => {
  it('lists every distinct tool of the run by kind then name, a tool offered with two definitions twice', () => {
    const reworded = { ...SEARCH, description: 'Search the documentation.' }
    const handoff = { description: null, kind: 'handoff', name: 'transfer_to_billing', parameters: null } as const
    const trace = {
      tool_sets: {
        ts_000000000001: [SEARCH, handoff],
        ts_000000000002: [reworded, { description: null, kind: 'provider', name: 'web_search', parameters: null }],
        ts_000000000003: [SEARCH],
      },
    } satisfies Pick<Trace, 'tool_sets'>

    expect(toolsOffered(trace)).toEqual([SEARCH, reworded, handoff, { description: null, kind: 'provider', name: 'web_search', parameters: null }])
    expect(toolsOffered({})).toEqual([])
  })
})

describe('tools offered in the trace file', () => {
  it('are written once per set, pass the trace schema, and have their secrets redacted on disk like any field', async () => {
    const key = `sk-proj-${'A1b2C3d4E5'.repeat(4)}`
    const server = await startCannedServer(inOrder(json('chat/final-answer.json'), json('chat/final-answer.json')))
    const client = openaiClient(server)
    const traceDir = tempDir()
    const s = await session('secret-tool', { traceDir }, async () => {
      await ask(client, `Search the docs (uses key ${key}).`)
      await ask(client, `Search the docs (uses key ${key}).`)
    })

    expect(Object.keys(s.trace.tool_sets!)).toHaveLength(1)
    const text = readFileSync(s.path!, 'utf8')
    expect(text).not.toContain(key)
    const written = validateTrace(JSON.parse(text))
    expect(Object.values(written.tool_sets!)).toEqual([[{ ...SEARCH, description: 'Search the docs (uses key [REDACTED]).' }]])
    expect(written.turns.map((turn) => turn.llm_call.tool_set)).toEqual(Object.keys(s.trace.tool_sets!).flatMap((id) => [id, id]))
  })

  it('reach the journal while the run records, once per set and redacted, so a run that never closes keeps them', async () => {
    const key = `sk-proj-${'Z9y8X7w6V5'.repeat(4)}`
    const server = await startCannedServer(inOrder(json('chat/final-answer.json'), json('chat/final-answer.json')))
    const client = openaiClient(server)
    const traceDir = tempDir()
    await session('journalled-tools', { traceDir }, async (s) => {
      await ask(client, `Search the docs (key ${key}).`)
      await ask(client, `Search the docs (key ${key}).`)
      await new Promise((resolve) => setTimeout(resolve, 80))
      const journal = readdirSync(traceDir).find((file) => file.endsWith('.journal.jsonl'))!
      const text = readFileSync(join(traceDir, journal), 'utf8')
      expect(text.split('\n').filter((line) => line.startsWith('{"kind":"tool_set"'))).toHaveLength(1)
      expect(text).not.toContain(key)
      const read = readJournal(join(traceDir, journal)).trace
      expect(read.tool_sets).toEqual({ [Object.keys(s.trace.tool_sets!)[0]!]: [{ ...SEARCH, description: 'Search the docs (key [REDACTED]).' }] })
      expect(read.turns.map((turn) => turn.llm_call.tool_set)).toEqual(s.trace.turns.map((turn) => turn.llm_call.tool_set))
    })
  })

  it('travel through an OTLP export and back, each call keeping its set', async () => {
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    const s = await session('exported-tools', { save: false }, () => ask(openaiClient(server), 'Search the docs.'))
    const { traces } = await fromOtlp(toOtlp({ trace: s.trace, children: [] }))

    expect(traces[0]!.tool_sets).toEqual(s.trace.tool_sets)
    expect(traces[0]!.turns[0]!.llm_call.tool_set).toBe(s.trace.turns[0]!.llm_call.tool_set)
  })

  it('are left out of the golden: a reworded description does not change it', async () => {
    const server = await startCannedServer(inOrder(json('chat/final-answer.json'), json('chat/final-answer.json')))
    const client = openaiClient(server)
    const traceDir = tempDir()
    const first = await session('search', { traceDir, golden: true }, () => ask(client, 'Search the docs.'))
    const golden = readFileSync(join(traceDir, 'golden', 'search.trace.json'), 'utf8')
    const second = await session('search', { traceDir, golden: true }, () => ask(client, 'Search the documentation, then answer.'))

    expect(first.trace.turns[0]!.llm_call.tool_set).not.toBe(second.trace.turns[0]!.llm_call.tool_set)
    expect(readFileSync(join(traceDir, 'golden', 'search.trace.json'), 'utf8')).toBe(golden)
    expect(golden).not.toContain('tool_set')
    expect(normalizeTrace(second.trace)).toEqual(normalizeTrace(first.trace))
  })
})
