import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ReagentError, TraceFormatError, TraceNotFoundError, loadTrace, session } from '../src/entries/index.js'
import { sanitizeName, saveTrace, tracePath } from '../src/entries/files.js'
import { loadGolden } from '../src/entries/golden.js'
import { listTraceFiles, readTraceFields, renderTrace, writeFileAtomic } from '../src/storage/index.js'
import type { Trace } from '../src/trace/types.js'
import { buildTrace } from './helpers/trace-builder.js'
import { tempDir } from './helpers/temp-dir.js'

describe('sanitizeName()', () => {
  it.each([
    ['refund-agent', 'refund-agent'],
    ['suite > refunds an order', 'suite___refunds_an_order'],
    ['../../etc/passwd', 'etc_passwd'],
    ['_.hidden._', 'hidden'],
    ['v1.2', 'v1.2'],
    ['größe über 9000', 'größe_über_9000'],
    ['a/b\\c:d', 'a_b_c_d'],
  ])('turns %j into %j', (name, expected) => {
    expect(sanitizeName(name)).toBe(expected)
  })

  it('throws a ReagentError when nothing usable is left', () => {
    expect(() => sanitizeName('._/')).toThrow(ReagentError)
  })
})

describe('tracePath()', () => {
  it('puts runs in traceDir and baselines in traceDir/golden', () => {
    expect(tracePath('a b')).toBe(join('.reagent', 'a_b.trace.json'))
    expect(tracePath('a b', { traceDir: 'x', golden: true })).toBe(join('x', 'golden', 'a_b.trace.json'))
  })
})

describe('writeFileAtomic()', () => {
  it('leaves no temporary file behind and replaces the file in one step', () => {
    const dir = tempDir()
    const path = join(dir, 'nested', 'x.trace.json')
    expect(writeFileAtomic(path, 'one')).toBe(true)
    expect(writeFileAtomic(path, 'two')).toBe(true)
    expect(readFileSync(path, 'utf8')).toBe('two')
    expect(readdirSync(join(dir, 'nested'))).toEqual(['x.trace.json'])
  })

  it('writes long text byte for byte, a character outside the BMP whole wherever the text is cut to be encoded', () => {
    const dir = tempDir()
    const path = join(dir, 'wide.trace.json')
    for (const text of ['😀'.repeat(400_000), `a${'😀'.repeat(400_000)}`, `é${'x'.repeat(2_000_000)}€`]) {
      writeFileAtomic(path, text)
      expect(readFileSync(path, 'utf8')).toBe(text)
    }
  })

  it('does not touch a file that already holds the same bytes when asked', async () => {
    const dir = tempDir()
    const path = join(dir, 'g.trace.json')
    writeFileAtomic(path, 'same')
    const before = statSync(path).mtimeMs
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(writeFileAtomic(path, 'same', { skipIfUnchanged: true })).toBe(false)
    expect(statSync(path).mtimeMs).toBe(before)
  })

  it('never leaves a truncated file when the writing process is killed mid-write', async () => {
    const dir = tempDir()
    const path = join(dir, 'big.trace.json')
    const versions = ['a', 'b'].map((c) => c.repeat(8_000_000))
    const child = spawn(
      process.execPath,
      [
        // The source, through tsx: the package's built files are bundles (scripts/bundle.ts), with no module of its own for storage.
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { writeFileAtomic } from ${JSON.stringify(new URL('../src/storage/index.ts', import.meta.url).href)}
         for (let i = 0; ; i++) { writeFileAtomic(${JSON.stringify(path)}, (i % 2 ? 'b' : 'a').repeat(8_000_000)); process.send?.('w') }`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
    )
    let writes = 0
    await new Promise<void>((resolve, reject) => {
      child.on('exit', (code) => reject(new Error(`the writing process exited (${code}) after ${writes} writes, before it was killed`)))
      child.on('message', () => {
        writes += 1
        if (writes === 3)
          setTimeout(() => {
            child.kill('SIGKILL')
            resolve()
          }, 7)
      })
    })
    await new Promise((resolve) => child.on('exit', resolve))
    expect(versions).toContain(readFileSync(path, 'utf8'))
  })
})

describe('loadTrace()', () => {
  it('throws TraceNotFoundError naming the path', () => {
    const path = join(tempDir(), 'missing.trace.json')
    expect(() => loadTrace(path)).toThrowError(TraceNotFoundError)
    expect(() => loadTrace(path)).toThrowError(`No trace file at ${path}.`)
  })

  it('throws TraceFormatError naming the file when it is not JSON', () => {
    const path = join(tempDir(), 'broken.trace.json')
    writeFileSync(path, '{"trace_id": ')
    expect(() => loadTrace(path)).toThrowError(TraceFormatError)
    try {
      loadTrace(path)
    } catch (error) {
      expect(error).toMatchObject({ file: path, jsonPath: '', rule: 'json' })
      expect((error as Error).message).toMatch(new RegExp(`^${path} is not a valid reagent-flow trace: at the top level: the file is not JSON`))
    }
  })

  it('throws TraceFormatError with the JSON path and rule when the schema is broken', () => {
    const path = join(tempDir(), 'extra.trace.json')
    const trace = JSON.parse(readFileSync(new URL('../fixtures/reagent-flow-py-0.5/planner.trace.json', import.meta.url), 'utf8'))
    trace.turns[0].tool_results[0].name = 'delegate'
    writeFileSync(path, JSON.stringify(trace))
    expect(() => loadTrace(path)).toThrowError(
      `${path} is not a valid reagent-flow trace: at turns[0].tool_results[0]: unexpected key "name" ` +
        `(the Python reagent-flow 0.5 cannot load extra keys here) (rule: additionalProperties). ` +
        `Fix or delete the file, or record it again; the format is described by reagent-flow/schema.json.`,
    )
  })
})

describe('loadGolden()', () => {
  it('throws TraceNotFoundError naming the path it looked at and how to record one', () => {
    const traceDir = tempDir()
    const expectedPath = join(traceDir, 'golden', 'refund.trace.json')
    expect(() => loadGolden('refund', { traceDir })).toThrowError(
      `No trace file at ${expectedPath}. There is no golden baseline for "refund" yet. ` +
        `Record one with session("refund", { golden: true }, ...) or run your tests with REAGENT_UPDATE=new, then commit ${expectedPath}.`,
    )
  })

  it('reads a golden written by golden: true', async () => {
    const traceDir = tempDir()
    await session('refund', { traceDir, golden: true }, (s) => void s.logLlmCall({ responseText: 'done' }))
    expect(loadGolden('refund', { traceDir }).turns[0]!.llm_call.response_text).toBe('done')
  })
})

describe('saveTrace() and renderTrace()', () => {
  it('saves a trace that loads back equal', async () => {
    const traceDir = tempDir()
    const s = await session('roundtrip', { save: false }, (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'a', arguments: { x: [1, { y: null }] } }] })
      s.logToolResult('a', { result: { nested: { ok: true } } })
    })
    const path = saveTrace(s.trace, { traceDir })
    expect(loadTrace(path)).toEqual(s.trace)
  })

  it('writes 2-space JSON with a trailing newline', async () => {
    const s = await session('format', { save: false }, () => undefined)
    expect(renderTrace(s.trace)).toBe(`${JSON.stringify(s.trace, null, 2)}\n`)
  })
})

describe('listTraceFiles()', () => {
  it('lists the *.trace.json files of a directory, sorted, without dot files, temporary files or golden/', () => {
    const dir = tempDir()
    for (const name of ['b.trace.json', 'a.trace.json', '.a.trace.json.123.1.tmp', '.hidden.trace.json', 'notes.json', 'x.trace.json.bak']) {
      writeFileSync(join(dir, name), '{}')
    }
    mkdirSync(join(dir, 'golden'))
    writeFileSync(join(dir, 'golden', 'a.trace.json'), '{}')
    expect(listTraceFiles(dir)).toEqual([join(dir, 'a.trace.json'), join(dir, 'b.trace.json')])
  })

  it('returns null for a directory that does not exist', () => {
    expect(listTraceFiles(join(tempDir(), 'missing'))).toBeNull()
  })
})

describe('readTraceFields()', () => {
  const bigTrace = (): Trace => {
    const trace = buildTrace(
      'big',
      Array.from({ length: 200 }, (_, i) => ({ calls: [{ name: 'search', args: { q: `q${i}` }, result: 'r'.repeat(100) }] })),
    )
    return { ...trace, metadata: { goal: 'find things' }, grade: { grade: 'pass', source: 'ci', reason: null, ref: null, graded_at: 1_800_000_100 } }
  }
  const withoutTurns = ({ turns: _turns, ...fields }: Trace): Omit<Trace, 'turns'> => fields

  it('returns every field but the turns, for small and large files, ours and Python-written', () => {
    const dir = tempDir()
    const small = buildTrace('small', [{ text: 'hi' }])
    for (const trace of [small, bigTrace()]) {
      const path = saveTrace(trace, { traceDir: dir })
      expect(readTraceFields(path)).toEqual(withoutTurns(loadTrace(path)))
    }
    const python = join(import.meta.dirname, '../fixtures/reagent-flow-py-0.5/researcher.trace.json')
    expect(readTraceFields(python)).toEqual(withoutTurns(loadTrace(python)))
  })

  it("reads a large file's two ends only: damage in the middle of its turns is not looked at", () => {
    const path = saveTrace(bigTrace(), { traceDir: tempDir() })
    writeFileSync(path, readFileSync(path, 'utf8').replace('"q100"', '"q100'))
    expect(readTraceFields(path)).toMatchObject({ name: 'big', metadata: { goal: 'find things' }, grade: { grade: 'pass' } })
    expect(() => loadTrace(path)).toThrow(TraceFormatError)
  })

  it('reads files in any other layout whole: sorted keys, no indentation', () => {
    const dir = tempDir()
    const trace = bigTrace()
    const sorted = saveTrace(trace, { traceDir: dir, golden: true })
    expect(readTraceFields(sorted)).toMatchObject({ name: 'big', trace_id: 'golden' })
    const compact = join(dir, 'compact.trace.json')
    writeFileSync(compact, JSON.stringify(trace))
    expect(readTraceFields(compact)).toEqual(withoutTurns(trace))
  })

  it('throws TraceFormatError with the JSON path and rule for a file that is not a trace', () => {
    const dir = tempDir()
    const foreign = join(dir, 'foreign.trace.json')
    writeFileSync(foreign, '{"name": "package", "version": "1.0.0"}')
    expect(() => readTraceFields(foreign)).toThrow(expect.objectContaining({ file: foreign, jsonPath: '', rule: 'required' }))
    const badStatus = saveTrace({ ...bigTrace(), status: 'done' as never }, { traceDir: dir })
    expect(() => readTraceFields(badStatus)).toThrow(expect.objectContaining({ jsonPath: 'status', rule: 'enum' }))
    const truncated = join(dir, 'truncated.trace.json')
    writeFileSync(truncated, '{"trace_id": "x", ')
    expect(() => readTraceFields(truncated)).toThrow(expect.objectContaining({ rule: 'json' }))
  })
})
