/**
 * False positives on real agent traffic: every payload under fixtures/ (SDK
 * responses, streams, recorded traces, reagent-flow 0.5 files) goes through
 * the default redaction, as a value and as the text an agent would record,
 * and the test lists exactly what was redacted. None of it is a secret.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { redactValue, resolveRedactPolicy } from '../../src/redact/index.js'
import type { JsonValue } from '../../src/trace/types.js'

const FIXTURES = join(import.meta.dirname, '../../fixtures')
// No environment secrets: what this machine's environment holds is not the point here.
const policy = resolveRedactPolicy(undefined, { env: {} })!

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules') return []
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

/** Every path at which `after` differs from `before`, with both values. */
function changes(before: JsonValue, after: JsonValue, path: string, out: string[]): void {
  if (before === after) return
  if (before !== null && after !== null && typeof before === 'object' && typeof after === 'object') {
    const keysBefore = Object.keys(before)
    if (keysBefore.join('\u0000') !== Object.keys(after).join('\u0000')) out.push(`${path}: keys renamed`)
    for (const key of keysBefore) {
      if (Object.hasOwn(after, key)) changes((before as Record<string, JsonValue>)[key]!, (after as Record<string, JsonValue>)[key]!, `${path}/${key}`, out)
    }
    return
  }
  out.push(`${path}: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`)
}

const payloads = filesUnder(FIXTURES)
  .filter((path) => /\.(json|sse|md)$/.test(path))
  .map((path) => ({ name: relative(FIXTURES, path), text: readFileSync(path, 'utf8') }))

describe('the default redaction on every fixture', () => {
  it('reads every payload file (SDK responses, streams, traces)', () => {
    expect(payloads.length).toBeGreaterThanOrEqual(39)
    expect(payloads.filter((p) => p.name.endsWith('.sse')).length).toBeGreaterThanOrEqual(9)
  })

  it('redacts exactly this in them', () => {
    const redacted: Record<string, string[]> = {}
    for (const { name, text } of payloads) {
      const out: string[] = []
      let value: JsonValue = text
      try {
        value = JSON.parse(text) as JsonValue
      } catch {
        // Streams and notes are text.
      }
      changes(value, redactValue(value, policy), '', out)
      if (typeof value !== 'string') changes(text, redactValue(text, policy), '(as text)', out)
      if (out.length > 0) redacted[name] = out
    }
    // The reagent-flow 0.5 file was written redacted: its "[REDACTED]" stays as it is.
    expect(redacted).toEqual({})
  })
})
