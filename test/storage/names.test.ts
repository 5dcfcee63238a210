/**
 * Names as file names: two different names never share a file, any valid
 * name can be written however long, and a secret in a name never becomes a
 * file name.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace, session } from '../../src/entries/index.js'
import { loadGolden, matchGolden } from '../../src/entries/golden.js'
import { fileStem, resolveTraceFile } from '../../src/storage/index.js'
import { tempDir } from '../helpers/temp-dir.js'

const record = (name: string, traceDir: string, text = name) => session(name, { traceDir }, (s) => void s.logLlmCall({ responseText: text }))

describe('names that meet on one file name', () => {
  it.each([
    ['a: b', 'a; b'],
    ['a/b', 'a\u0000b'],
  ])('%j and %j each keep a file of their own, and each is read back by its name', async (first, second) => {
    const traceDir = tempDir()
    const a = await record(first, traceDir)
    const b = await record(second, traceDir)
    expect(a.path).not.toBe(b.path)
    expect(loadTrace(a.path!).name).toBe(first)
    expect(loadTrace(b.path!).name).toBe(second)
    expect(resolveTraceFile({ name: second }, { traceDir })).toBe(b.path)
    expect(b.path).toMatch(/~[0-9a-f]{8}\.trace\.json$/)
  })

  it('treats the composed and the decomposed spelling of a name as the same name', async () => {
    const traceDir = tempDir()
    await record('caf\u00e9', traceDir)
    await record('cafe\u0301', traceDir)
    expect(readdirSync(traceDir)).toEqual(['café.trace.json'])
  })

  it('keeps goldens of colliding names apart too', () => {
    const traceDir = tempDir()
    const trace = (name: string) => ({
      trace_id: 't',
      name,
      turns: [],
      metadata: {},
      started_at: 1,
      ended_at: 2,
      format_version: '1' as const,
      parent_trace_id: null,
      handoff_context: null,
    })
    expect(matchGolden(trace('x: y'), { traceDir, update: 'new' }).written).toBe('created')
    expect(matchGolden(trace('x; y'), { traceDir, update: 'new' }).written).toBe('created')
    expect(loadGolden('x: y', { traceDir }).name).toBe('x: y')
    expect(loadGolden('x; y', { traceDir }).name).toBe('x; y')
  })
})

describe('long names', () => {
  it.each([
    ['ASCII', 'a'.repeat(400)],
    ['CJK', '长'.repeat(200)],
  ])('write a %s name of any length, cut with a stable hash of the whole name', async (_, name) => {
    const traceDir = tempDir()
    const s = await record(name, traceDir)
    const file = readdirSync(traceDir)[0]!
    expect(Buffer.byteLength(file)).toBeLessThanOrEqual(150 + '.trace.json'.length)
    expect(file).toBe(`${fileStem(name)}.trace.json`)
    expect(fileStem(name)).toMatch(/~[0-9a-f]{8}$/)
    expect(loadTrace(s.path!).name).toBe(name)
  })
})

describe('a secret in a name', () => {
  it('never becomes a file name, nor is written in the file', async () => {
    const traceDir = tempDir()
    const key = `sk-proj-${'Ab3'.repeat(16)}`
    const s = await record(`agent for ${key}`, traceDir)
    const written = readdirSync(traceDir).join('\n') + readFileSync(s.path!, 'utf8')
    expect(written).not.toContain(key)
    expect(readdirSync(traceDir)).toEqual(['agent_for__REDACTED.trace.json'])
  })
})

describe('file system failures', () => {
  it('name the path and say what to do: a trace path that is a directory', () => {
    const traceDir = tempDir()
    const path = join(traceDir, 'x.trace.json')
    mkdirSync(path)
    expect(() => loadTrace(path)).toThrow(`Cannot read ${path}: the path is a directory, not a file: remove or rename the directory (EISDIR).`)
  })

  it('name the path and say what to do: a golden that cannot be written (a file where its folder should be)', () => {
    const traceDir = tempDir()
    writeFileSync(join(traceDir, 'golden'), 'not a folder')
    const trace = {
      trace_id: 't',
      name: 'g',
      turns: [],
      metadata: {},
      started_at: 1,
      ended_at: 2,
      format_version: '1' as const,
      parent_trace_id: null,
      handoff_context: null,
    }
    expect(() => matchGolden(trace, { traceDir, update: 'new' })).toThrow(
      `Cannot read ${join(traceDir, 'golden', 'g.trace.json')}: a part of the path is a file, not a directory: remove or rename that file, or choose another traceDir (ENOTDIR).`,
    )
  })

  it('name the path and say what to do: a symbolic link loop', () => {
    const traceDir = tempDir()
    symlinkSync(join(traceDir, 'b.trace.json'), join(traceDir, 'a.trace.json'))
    symlinkSync(join(traceDir, 'a.trace.json'), join(traceDir, 'b.trace.json'))
    expect(() => loadTrace(join(traceDir, 'a.trace.json'))).toThrow(
      `Cannot read ${join(traceDir, 'a.trace.json')}: the path goes through a loop of symbolic links: fix or remove the links (ELOOP).`,
    )
  })
})
