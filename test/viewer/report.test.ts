import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { embedJson, escapeHtml, inlineScript, reportPage } from '../../src/viewer/page-html.js'
import { buildReport } from '../../src/viewer/report.js'
import { approveCommand } from '../../src/viewer/shell-words.js'
import { shellQuote } from '../../src/report/shell.js'
import { runCli } from '../cli/run-cli.js'
import { tempDir } from '../helpers/temp-dir.js'
import { HOSTILE, HOSTILE_FILE, writeViewerDir } from './viewer-dir.js'

describe('the static report', () => {
  it('embeds JSON that no string can end the script element with, and reads back the same', () => {
    const value = { a: '</script><script>alert(1)</script>', b: '<!-- x -->', c: 'a & b \u2028 \u2029' }
    const text = embedJson(value)
    expect(text).toBe(
      '{"a":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e","b":"\\u003c!-- x --\\u003e","c":"a \\u0026 b \\u2028 \\u2029"}',
    )
    expect(JSON.parse(text)).toEqual(value)
    expect(inlineScript('x = "</script>"; y = "<!--"')).toBe('x = "<\\/script>"; y = "<\\!--"')
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;')
  })

  it('allows exactly its own inline script and styles by their hashes, and nothing from the network', () => {
    const html = reportPage({ title: 'T <b>', styles: 'body{color:red}', script: 'console.log("</script>")', data: { x: '</script>' } })
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src ${hash('console.log("<\\/script>")').replaceAll("'", '&#39;')}; style-src ${hash('body{color:red}').replaceAll("'", '&#39;')}; img-src data:; base-uri &#39;none&#39;; form-action &#39;none&#39;">`,
    )
    expect(html).toContain('<title>T &#60;b&#62;</title>')
    expect(html.match(/<\/script/gi)).toHaveLength(2)
  })

  it('holds every run, golden, trace and golden diff of the directory, with hostile strings only inside the escaped data', () => {
    const report = buildReport({ dir: writeViewerDir(tempDir()) })
    expect({ runs: report.runs, goldens: report.goldens, skipped: report.skipped }).toEqual({ runs: 8, goldens: 3, skipped: 0 })
    expect(report.html.match(/<\/script/gi)).toHaveLength(2)
    expect(report.html).not.toContain(HOSTILE.text)
    expect(report.html).not.toContain('<img')
    const data = JSON.parse(/<script type="application\/json" id="reagent-data">(.*)<\/script>\n<script>/s.exec(report.html)![1]!)
    expect(Object.keys(data.traces)).toHaveLength(11)
    expect(data.traces[HOSTILE_FILE].turns[0].llm_call.response_text).toBe(HOSTILE.text)
    expect(data.golden_diffs['refund-agent.trace.json'].changes[0]).toMatchObject({
      path: 'turns[1].llm_call.tool_calls[0].arguments.amount',
      expected: 19.99,
      actual: 25,
    })
    expect(data.stack_traces['crashed-agent.trace.json']).toContain('✗ Error: downstream exploded')
  })

  it('is written by reagent-flow report --out', async () => {
    const dir = writeViewerDir(tempDir())
    const out = join(tempDir(), 'report.html')
    const result = runCli(['report', '--dir', dir, '--out', out], dir)
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(new RegExp(`^reagent-flow report: ${out} · 8 runs, 3 goldens · \\d+ bytes\\n$`))
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/)
    expect(runCli(['report', '--dir', dir], dir)).toMatchObject({
      code: 2,
      stderr: 'reagent-flow report: --out <file.html> is required: where to write the report\n',
    })
  })
})

describe('commands the viewer prints', () => {
  it('quotes every word a shell would read otherwise', () => {
    expect(shellQuote('refund-agent')).toBe('refund-agent')
    expect(shellQuote("it's $HOME > x")).toBe(`'it'\\''s $HOME > x'`)
    expect(approveCommand('.reagent', { id: 'refund-agent.trace.json', name: 'refund-agent' })).toBe('npx reagent-flow approve refund-agent')
    expect(approveCommand('my traces', { id: 'refund agent.trace.json', name: 'refund agent' })).toBe(
      "npx reagent-flow approve 'my traces/refund agent.trace.json'",
    )
    expect(approveCommand('.reagent', { id: 'tests/a.test.ts/happy.trace.json', name: 'happy' })).toBe(
      'npx reagent-flow approve .reagent/tests/a.test.ts/happy.trace.json',
    )
    expect(approveCommand('t', { id: 'x.01ARZ3NDEKTSV4RRFFQ69G5FAV.journal.jsonl', name: 'x' })).toBe('npx reagent-flow approve x --dir t')
  })
})
