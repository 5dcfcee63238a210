import { spawn } from 'node:child_process'
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { CLI } from '../cli/run-cli.js'
import { tempDir } from '../helpers/temp-dir.js'
import { writeRegression } from './comparison-results.js'
import { writeViewerDir } from './viewer-dir.js'
import { readTokenFile } from '../../src/ledger/tokens.js'
import { startDirectoryLedger } from '../ledger/harness.js'

const LEDGER_TOKEN = 'view-ledger-token-0123456789abcdef'

/** A token file in `dir` with one token of the harness's default namespace, and its registry. */
function readTokenFileFrom(dir: string) {
  const file = join(dir, 'tokens.json')
  writeFileSync(file, JSON.stringify({ tokens: [{ name: 'ci', token: LEDGER_TOKEN, org: 'acme', namespace: 'default' }] }))
  return readTokenFile(file)
}

/** Starts `reagent-flow <args>` and resolves with the first line it printed. */
function start(args: readonly string[], cwd: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  const line = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => stdout.includes('\n') && resolve(stdout.split('\n')[0]!))
    void exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)))
  })
  return { child, line, exited, stderr: () => stderr }
}

describe('reagent-flow view', () => {
  it('serves the directory, opens the page with $BROWSER when asked, and stops cleanly on SIGTERM', async () => {
    const dir = writeViewerDir(tempDir())
    const opened = join(tempDir(), 'opened.txt')
    const browser = join(tempDir(), 'browser.sh')
    writeFileSync(browser, `#!/bin/sh\necho "$1" > ${opened}\n`)
    chmodSync(browser, 0o755)
    const view = start(['view', '--dir', dir, '--port', '0', '--open'], dir, { BROWSER: browser })
    const line = await view.line
    const url = /on (http:\/\/127\.0\.0\.1:\d+\/) /.exec(line)?.[1]
    expect(line).toBe(`reagent-flow view: the trace viewer on ${url} · ${dir}: 8 runs, 3 goldens · loopback only`)
    expect((await (await fetch(`${url}api/runs`)).json()) as object).toMatchObject({ dir })
    for (let i = 0; i < 100 && !existsSync(opened); i++) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(readFileSync(opened, 'utf8')).toBe(`${url}\n`)
    view.child.kill('SIGTERM')
    expect(await view.exited).toBe(0)
    expect(view.stderr()).toMatch(/reagent-flow view: SIGTERM: stopping after the requests in flight\nreagent-flow view: stopped\n$/)
  })

  it('with --results and --baseline, serves the comparison at /api/comparison and says where its page is', async () => {
    const dir = writeViewerDir(tempDir())
    writeRegression(dir)
    const view = start(['view', '--dir', dir, '--port', '0', '--results', 'branch', '--baseline', 'main'], dir)
    const line = await view.line
    const url = /on (http:\/\/127\.0\.0\.1:\d+\/) /.exec(line)?.[1]
    expect(line).toBe(
      `reagent-flow view: the trace viewer on ${url} · ${dir}: 8 runs, 3 goldens · loopback only · the comparison with the baseline on ${url}#/compare`,
    )
    const comparison = (await (await fetch(`${url}api/comparison`)).json()) as { baseline: object; current: object; tests: Array<{ verdict: string }> }
    expect([comparison.baseline, comparison.current, comparison.tests.map((test) => test.verdict)]).toEqual([
      { path: 'main', files: 1 },
      { path: 'branch', files: 1 },
      ['regressed', 'unchanged'],
    ])
    view.child.kill('SIGTERM')
    expect(await view.exited).toBe(0)
  })

  it('refuses results it cannot read before it serves anything, in one line with exit code 2', async () => {
    const dir = writeViewerDir(tempDir())
    writeRegression(dir)
    const view = start(['view', '--dir', dir, '--port', '0', '--results', 'nowhere', '--baseline', 'main'], dir)
    await expect(view.line).rejects.toThrow('exited with 2')
    expect(view.stderr()).toBe('reagent-flow view: nowhere does not exist. Give a results file, or a folder of the results files of earlier runs.\n')
  })

  it("with --ledger, shows that ledger's runs at /ledger/, read with REAGENT_LEDGER_TOKEN, and says so", async () => {
    const ledger = await startDirectoryLedger({ tokens: readTokenFileFrom(tempDir()) })
    expect((await ledger.call('run.begin', { run_id: 'r-remote', agent: 'refund-agent', goal: 'refund' }, { token: LEDGER_TOKEN })).status).toBe(200)
    const dir = writeViewerDir(tempDir())
    const view = start(['view', '--dir', dir, '--port', '0', '--ledger', ledger.url], dir, { REAGENT_LEDGER_TOKEN: LEDGER_TOKEN })
    const line = await view.line
    const url = /on (http:\/\/127\.0\.0\.1:\d+\/) /.exec(line)?.[1]
    expect(line).toBe(
      `reagent-flow view: the trace viewer on ${url} · ${dir}: 8 runs, 3 goldens · loopback only · the ledger at ${ledger.url} on ${url}ledger/`,
    )
    const runs = (await (await fetch(`${url}ledger/api/runs`)).json()) as { runs: Array<{ run_id: string }>; total: number }
    expect([runs.runs.map((run) => run.run_id), runs.total]).toEqual([['r-remote'], 1])
    // The ledger's refusals come through as they are: a 422 naming the field.
    const refused = await fetch(`${url}ledger/api/runs?status=exploded`)
    expect([refused.status, ((await refused.json()) as { field: string }).field]).toEqual([422, 'status'])
    view.child.kill('SIGTERM')
    expect(await view.exited).toBe(0)
    const unauthorized = start(['view', '--dir', dir, '--port', '0', '--ledger', ledger.url], dir, { REAGENT_LEDGER_TOKEN: '' })
    const unauthorizedUrl = /on (http:\/\/127\.0\.0\.1:\d+\/) /.exec(await unauthorized.line)?.[1]
    const answer = await fetch(`${unauthorizedUrl}ledger/api/runs`)
    expect([answer.status, ((await answer.json()) as { error: string }).error]).toEqual([401, 'unauthorized'])
    unauthorized.child.kill('SIGTERM')
    expect(await unauthorized.exited).toBe(0)
    const bad = start(['view', '--dir', dir, '--port', '0', '--ledger', 'ledger.internal'], dir)
    await expect(bad.line).rejects.toThrow('exited with 2')
    expect(bad.stderr()).toBe('reagent-flow view: --ledger must be the ledger\'s http(s) URL, as reagent-flow serve prints it; got "ledger.internal"\n')
  })

  it('runs beside the run ledger with serve --view', async () => {
    const dir = writeViewerDir(tempDir())
    const serve = start(['serve', '--view', '--dir', dir, '--port', '0'], dir)
    const line = await serve.line
    const url = /the trace viewer on (http:\/\/\S+\/) /.exec(line)?.[1]
    expect(line).toContain(
      `the run ledger on ${url}v1 and MCP on ${url}mcp · the trace viewer on ${url} · the team viewer on ${url}ledger/ · store: directory ${dir}`,
    )
    expect((await fetch(url!)).headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect((await fetch(`${url}ledger/`)).headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect((await fetch(`${url}v1/run.list`, { method: 'POST', body: '{}' })).status).toBe(200)
    serve.child.kill('SIGTERM')
    expect(await serve.exited).toBe(0)
  })
})

describe('the page source', () => {
  it('never parses a string as HTML: no innerHTML, outerHTML, insertAdjacentHTML, document.write or eval in the client', () => {
    const folder = join(import.meta.dirname, '../../src/viewer/client')
    const offenders = readdirSync(folder)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) =>
        (
          /\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval|new Function|DOMParser|createContextualFragment)\b/.exec(
            readFileSync(join(folder, name), 'utf8'),
          ) ?? []
        ).map((hit) => `${name}: ${hit}`),
      )
    expect(offenders).toEqual([])
  })
})
