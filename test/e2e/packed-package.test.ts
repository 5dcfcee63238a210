/**
 * The package as a user gets it from npm: `npm pack`, unpacked into the
 * node_modules of a fresh folder outside the repository (as npm install
 * does, without reaching the registry: the runtime dependencies and the
 * peers are linked from this repository's own node_modules), and a first
 * test run through it, set up with the plugin — the README's 60-second start.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const MANIFEST = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }

describe('the packed package, installed in a fresh folder', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'reagent-packed-'))
    execFileSync(NPM, ['pack', '--pack-destination', dir, '--silent'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] })
    const tarball = readdirSync(dir).find((file) => file.endsWith('.tgz'))!
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'first-agent-test', private: true, type: 'module' }))
    mkdirSync(join(dir, 'node_modules'))
    execFileSync('tar', ['-xzf', tarball, '-C', 'node_modules'], { cwd: dir })
    renameSync(join(dir, 'node_modules', 'package'), join(dir, 'node_modules', 'reagent-flow'))
    for (const name of [...Object.keys(MANIFEST.dependencies), 'vitest', 'vite', 'openai']) {
      const link = join(dir, 'node_modules', name)
      mkdirSync(join(link, '..'), { recursive: true })
      symlinkSync(join(REPO, 'node_modules', name), link, 'dir')
    }
  }, 60_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('ships no install script, only built files and the TypeScript sources their maps name', () => {
    const { scripts } = JSON.parse(readFileSync(join(dir, 'node_modules', 'reagent-flow', 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    expect(Object.keys(scripts).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name))).toEqual([])
    expect(readdirSync(join(dir, 'node_modules', 'reagent-flow')).sort()).toEqual(['README.md', 'adapters', 'dist', 'package.json', 'src'])
  })

  it('names in every source map only files the package ships, so a stack frame is a file the user can open', () => {
    const pkg = join(dir, 'node_modules', 'reagent-flow')
    const files = readdirSync(join(pkg, 'dist'), { recursive: true }) as string[]
    const maps = files.filter((file) => file.endsWith('.js.map'))
    // Every bundled file has its map (scripts/bundle.ts); the viewer's pages (viewer.js, the team viewer's ledger.js), minified for browsers, have none.
    expect(maps.sort()).toEqual(
      files
        .filter((file) => file.endsWith('.js') && !file.startsWith(join('src', 'viewer', 'client')))
        .map((file) => `${file}.map`)
        .sort(),
    )
    expect(maps.length).toBeGreaterThan(16)
    const missing = maps.flatMap((file) => {
      const map = join(pkg, 'dist', file)
      const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }
      return sources.map((source) => resolve(dirname(map), source)).filter((source) => !existsSync(source))
    })
    expect(missing).toEqual([])
  })

  it('points the stack of an error thrown inside it at its TypeScript sources, which are there (node --enable-source-maps)', () => {
    const script = join(dir, 'throw.mjs')
    writeFileSync(script, "import { session } from 'reagent-flow'\ntry { await session('', () => 1) } catch (error) { console.log(error.stack) }\n")
    const stack = execFileSync(process.execPath, ['--enable-source-maps', script], { cwd: dir, encoding: 'utf8' })
    const frames = [...stack.matchAll(/\(?(\/[^\s()]+\/node_modules\/reagent-flow\/[^\s():]+):\d+:\d+\)?/g)].map((match) => match[1]!)
    expect(frames.length).toBeGreaterThan(1)
    expect(frames.filter((file) => !file.endsWith('.ts') || !existsSync(file))).toEqual([])
    expect(frames[0]).toBe(join(dir, 'node_modules', 'reagent-flow', 'src', 'storage', 'paths.ts'))
  })

  it.each([
    [
      'view',
      'reagent-flow view: the trace viewer needs hono and @hono/node-server, optional peer dependencies of reagent-flow that are not installed: npm i -D hono@^4.11 @hono/node-server@^2',
    ],
    [
      'serve',
      'reagent-flow serve: the run ledger server needs hono, @hono/node-server, @modelcontextprotocol/sdk and prom-client, optional peer dependencies of reagent-flow that are not installed: npm i -D hono@^4.11 @hono/node-server@^2 @modelcontextprotocol/sdk@^1.32 prom-client@^15.1',
    ],
  ])('says, for reagent-flow %s without its server packages, exactly what to install', (command, message) => {
    const run = spawnSync(process.execPath, [join(dir, 'node_modules', 'reagent-flow', 'dist', 'src', 'cli', 'index.js'), command], {
      cwd: dir,
      encoding: 'utf8',
    })
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: 2, stdout: '', stderr: `${message}\n` })
  })

  it('runs a first agent test through it, with no warning about source maps', () => {
    mkdirSync(join(dir, 'test'))
    writeFileSync(
      join(dir, 'vitest.config.ts'),
      // The README's one line: the plugin adds the setup file and the reporter.
      "import { reagentFlow } from 'reagent-flow/vitest/plugin'\nimport { defineConfig } from 'vitest/config'\nexport default defineConfig({ plugins: [reagentFlow()] })\n",
    )
    writeFileSync(
      join(dir, 'test', 'agent.test.ts'),
      `import OpenAI from 'openai'
import { expect } from 'vitest'
import { scriptedFetch } from 'reagent-flow/fake'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { test } from 'reagent-flow/vitest'

const openai = instrumentOpenAI(new OpenAI({ apiKey: 'sk-test', fetch: scriptedFetch([{ toolCalls: [{ name: 'lookup_order', arguments: { id: '42' } }] }, { text: 'Refunded.' }]) }))

test('refunds order 42', async ({ agentSession }) => {
  const s = await agentSession(async () => {
    const first = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Refund order 42' }] })
    const call = first.choices[0]!.message.tool_calls![0]!
    const answer = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Refund order 42' }, first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '{"ok":true}' }],
    })
    return answer.choices[0]!.message.content
  })
  expect(s).toHaveCalledToolWith('lookup_order', { id: '42' })
  expect(s).toMatchGolden()
})
`,
    )
    const run = spawnSync(process.execPath, [join(dir, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, CI: '', VITEST: '', NO_COLOR: '1' },
    })
    const output = run.stdout + run.stderr
    expect(output).toContain('Tests  1 passed (1)')
    expect(output).toContain('\n     Goldens  1 written\n  written .reagent/golden/test/agent.test.ts/refunds_order_42.trace.json\n')
    expect(run.status).toBe(0)
    expect(output).not.toContain('Sourcemap')
    expect(readdirSync(join(dir, '.reagent', 'golden', 'test', 'agent.test.ts'))).toEqual(['refunds_order_42.trace.json'])
  }, 60_000)
})
