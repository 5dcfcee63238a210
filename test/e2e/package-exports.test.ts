import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)

function runModule(code: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' })
}

describe('the published package (built dist/, resolved by its public name)', () => {
  it('exposes the recorder from "reagent-flow"', () => {
    const out = runModule(`
      import { session, loadTrace, validateTrace, traceTool, getRunContext } from 'reagent-flow'
      const s = await session('exports', { save: false }, (s) => { s.logLlmCall({ responseText: 'hi' }); return 1 })
      console.log(typeof loadTrace, typeof validateTrace, typeof traceTool, JSON.stringify(getRunContext()), s.output)
    `)
    expect(out).toBe('function function function {"metadata":{}} 1\n')
  })

  it('ships the JSON Schema as "reagent-flow/schema.json"', () => {
    const out = runModule(`
      import schema from 'reagent-flow/schema.json' with { type: 'json' }
      console.log(schema.title)
    `)
    expect(out).toBe('reagent-flow trace, format_version "1"\n')
  })

  it('declares the files whose import registers the vitest matchers as side effects, so bundlers keep the import', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
    expect(pkg.sideEffects).toEqual(['./dist/src/vitest/index.js', './dist/src/vitest/register.js'])
    for (const file of pkg.sideEffects) expect(existsSync(new URL(file, root))).toBe(true)
    expect(readFileSync(new URL('dist/src/vitest/index.js', root), 'utf8')).toContain("import './register.js';")
  })

  it('declares ESM, Node 20+, typed exports for every subpath, and the CLI', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
    expect(pkg.type).toBe('module')
    expect(pkg.engines.node).toBe('>=20')
    expect(pkg.bin).toEqual({ 'reagent-flow': './dist/src/cli/index.js' })
    for (const subpath of ['.', './vitest', './vitest/report', './openai', './anthropic', './langchain', './ai-sdk', './ledger']) {
      expect(Object.keys(pkg.exports[subpath])).toEqual(['types', 'default'])
    }
  })

  it("ships the viewer's page bundle, built at build time (nothing is built at install)", () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
    expect(pkg.files).toContain('dist/src')
    for (const file of ['dist/src/viewer/client/viewer.js', 'dist/src/viewer/client/viewer.css']) {
      expect(readFileSync(new URL(file, root), 'utf8').length).toBeGreaterThan(1000)
    }
    expect(pkg.scripts.postinstall).toBeUndefined()
  })
})
