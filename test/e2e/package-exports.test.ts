import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)

function runModule(code: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' })
}

describe('the published package (built dist/, resolved by its public name)', () => {
  it('exposes the recorder from "reagent-flow"', () => {
    const out = runModule(`
      import { session, loadTrace, traceTool, getRunContext } from 'reagent-flow'
import { validateTrace } from 'reagent-flow/files'
      const s = await session('exports', { save: false }, (s) => { s.logLlmCall({ responseText: 'hi' }); return 1 })
      console.log(typeof loadTrace, typeof validateTrace, typeof traceTool, JSON.stringify(getRunContext()), s.output)
    `)
    expect(out).toBe('function function function {"metadata":{}} 1\n')
  })

  it('exports a type guard for each error class from "reagent-flow" (the OTLP ones also from "reagent-flow/otel"; the ledger\'s and the scripted models\' from their subpaths), true only for the error it names', () => {
    const out = runModule(`
      import * as root from 'reagent-flow'
      import { isOtlpFormatError, isOtlpExportError } from 'reagent-flow/otel'
      import { validateTrace } from 'reagent-flow/files'
      import { isLedgerError } from 'reagent-flow/ledger'
      import { isScriptExhaustedError, isUnsupportedRequestError } from 'reagent-flow/fake'
      let thrown
      try { validateTrace({}) } catch (error) { thrown = error }
      const guards = Object.keys(root).filter((name) => /^is[A-Z]\\w*Error$/.test(name)).sort()
      console.log(guards.join(' '))
      console.log(root.isTraceFormatError(thrown), root.isTraceFileError(thrown), isOtlpFormatError === root.isOtlpFormatError, typeof isOtlpExportError)
      console.log(isLedgerError(thrown), isScriptExhaustedError(thrown), isUnsupportedRequestError(thrown))
    `)
    expect(out).toBe(
      'isAgentAssertionError isAmbiguousToolCallError isAmbiguousTraceError isBudgetExceededError isContractFileError isModelFaultError isOtlpExportError ' +
        'isOtlpFormatError isReagentError isRecordingFormatError isReplayMissError isSessionClosedError isToolFaultError isTraceFileError ' +
        'isTraceFormatError isTraceNotFoundError isUnusedRecordingError\n' +
        'true false true function\n' +
        'false false false\n',
    )
  })

  it('loads ajv on first use only: a session that opens over its earlier trace file does not load it', () => {
    const out = runModule(`
      import { createRequire } from 'node:module'
      import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
      import { tmpdir } from 'node:os'
      import { join } from 'node:path'
      import { session } from 'reagent-flow'
      import { validateTrace } from 'reagent-flow/files'
      import 'reagent-flow/openai'
      const loaded = () => Object.keys(createRequire(join(process.cwd(), 'x.js')).cache).some((path) => path.includes('/node_modules/ajv/'))
      const traceDir = mkdtempSync(join(tmpdir(), 'reagent-lazy-ajv-'))
      for (let run = 0; run < 2; run++) await session('twice', { traceDir }, (s) => void s.logLlmCall({ responseText: 'hi' }))
      const files = readdirSync(traceDir)
      const before = loaded()
      let thrown = ''
      try { validateTrace({}) } catch (error) { thrown = error.name }
      rmSync(traceDir, { recursive: true })
      console.log(JSON.stringify(files), before, loaded(), thrown)
    `)
    expect(out).toBe('["twice.trace.json"] false true TraceFormatError\n')
  })

  it('ships the JSON Schema as "reagent-flow/schema.json"', () => {
    const out = runModule(`
      import schema from 'reagent-flow/schema.json' with { type: 'json' }
      console.log(schema.title)
    `)
    expect(out).toBe('reagent-flow trace, format_version "1"\n')
  })

  it('ships the run results file\'s JSON Schema as "reagent-flow/results.schema.json"', () => {
    const out = runModule(`
      import schema from 'reagent-flow/results.schema.json' with { type: 'json' }
      console.log(schema.title, schema.properties.results_version.const)
    `)
    expect(out).toBe('reagent-flow run results 1\n')
  })

  it('declares the file whose import registers the vitest matchers as a side effect, so bundlers keep the import', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
    expect(pkg.sideEffects).toEqual(['./dist/src/entries/vitest.js'])
    // The bundled entry holds the registration itself (scripts/bundle.ts), not a chunk a bundler could drop.
    expect(readFileSync(new URL('dist/src/entries/vitest.js', root), 'utf8')).toContain('expect.extend(reagentMatchers)')
  })

  it('exports from each bundled entry point exactly what its source exports, each of the same kind', async () => {
    const entries = readdirSync(new URL('src/entries/', root)).filter((file) => file.endsWith('.ts'))
    expect(entries.length).toBe(18)
    const shape = (module: Record<string, unknown>): string[] =>
      Object.keys(module)
        .map((name) => `${name}: ${typeof module[name]}`)
        .sort()
    for (const file of entries) {
      const source = (await import(new URL(`src/entries/${file}`, root).href)) as Record<string, unknown>
      const bundled = (await import(new URL(`dist/src/entries/${file.replace(/\.ts$/, '.js')}`, root).href)) as Record<string, unknown>
      expect([file, shape(bundled)]).toEqual([file, shape(source)])
    }
  })

  it('declares ESM, Node 20+, typed exports for every subpath, and the CLI', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
    expect(pkg.type).toBe('module')
    expect(pkg.engines.node).toBe('>=20')
    expect(pkg.bin).toEqual({ 'reagent-flow': './dist/src/cli/index.js' })
    for (const subpath of [
      '.',
      './vitest',
      './openai',
      './anthropic',
      './langchain',
      './ai-sdk',
      './ledger',
      './vitest/reporter',
      './vitest/plugin',
      './openai-agents',
      './otel',
    ]) {
      expect(Object.keys(pkg.exports[subpath])).toEqual(['types', 'default'])
    }
  })

  it("maps every subpath, in tsconfig.json's paths, to the source file its types are built from (fixtures with a package.json of their own type-check against it)", () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { exports: Record<string, string | { types: string }> }
    const tsconfig = readFileSync(new URL('tsconfig.json', root), 'utf8').replace(/^\s*\/\/.*$/gm, '')
    const paths = (JSON.parse(tsconfig) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths
    const typed = Object.entries(pkg.exports).filter((entry): entry is [string, { types: string }] => typeof entry[1] === 'object')
    expect(paths).toEqual(
      Object.fromEntries(typed.map(([subpath, { types }]) => [`reagent-flow${subpath.slice(1)}`, [types.replace('./dist/', './').replace(/\.d\.ts$/, '.ts')]])),
    )
  })

  it("ships the viewer's and the team viewer's page bundles, built at build time (nothing is built at install)", () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
    expect(pkg.files).toContain('dist/src')
    for (const file of ['viewer.js', 'viewer.css', 'ledger.js', 'ledger.css'].map((name) => `dist/src/viewer/client/${name}`)) {
      expect(readFileSync(new URL(file, root), 'utf8').length).toBeGreaterThan(1000)
    }
    expect(pkg.scripts.postinstall).toBeUndefined()
  })

  it('records an Agents SDK run through "reagent-flow/openai-agents", and reads spans through "reagent-flow/otel"', () => {
    const out = runModule(`
      import { instrumentOpenAIAgents, instrumentAgentsModel } from 'reagent-flow/openai-agents'
      import { toOtlp, fromOtlp, ReagentSpanProcessor } from 'reagent-flow/otel'
      import { session } from 'reagent-flow'
      instrumentOpenAIAgents()
      const s = await session('exports', { save: false }, (s) => { s.logLlmCall({ responseText: 'hi', model: 'm' }) })
      const { traces } = await fromOtlp(toOtlp({ trace: s.trace, children: [] }, { includeContent: true }))
      console.log(typeof instrumentAgentsModel, typeof ReagentSpanProcessor, traces[0].turns[0].llm_call.response_text)
    `)
    expect(out).toBe('function function hi\n')
  })

  it('loads neither OpenTelemetry nor the Agents SDK for "reagent-flow", "reagent-flow/otel" or the CLI: only their own subpaths import them', () => {
    const imported = (entry: string): Set<string> => {
      const seen = new Set<string>()
      const bare = new Set<string>()
      const visit = (file: string): void => {
        if (seen.has(file)) return
        seen.add(file)
        for (const [, specifier] of readFileSync(file, 'utf8').matchAll(
          /^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm,
        )) {
          if (specifier === undefined) continue
          if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier))
          else bare.add(specifier)
        }
      }
      visit(fileURLToPath(new URL(entry, root)))
      return bare
    }
    for (const entry of ['dist/src/entries/index.js', 'dist/src/entries/otel.js', 'dist/src/cli/index.js']) {
      expect([
        entry,
        [...imported(entry)].filter(
          (name) => name.startsWith('@opentelemetry') || name.startsWith('@openai') || name.startsWith('@arizeai') || name.startsWith('@traceloop'),
        ),
      ]).toEqual([entry, []])
    }
    expect([...imported('dist/src/entries/openai-agents.js')]).toContain('@openai/agents')
  })
})
