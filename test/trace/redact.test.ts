/**
 * Redaction as sessions and the storage layer apply it; the rules
 * themselves are tested in test/redact/.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { session } from '../../src/entries/index.js'
import { redactForDisk, REDACTED } from '../../src/entries/files.js'
import { matchGolden } from '../../src/entries/golden.js'
import { renderTrace } from '../../src/storage/index.js'
import { tempDir } from '../helpers/temp-dir.js'

describe('session redaction', () => {
  it('redacts the written file by default and keeps the in-memory trace untouched', async () => {
    const traceDir = tempDir()
    const s = await session('secrets', { traceDir }, (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'call_api', arguments: { api_key: 'sk-live-123', path: '/v1/x' } }] })
    })
    expect(s.trace.turns[0]!.llm_call.tool_calls[0]!.arguments.api_key).toBe('sk-live-123')
    const written = JSON.parse(readFileSync(s.path!, 'utf8'))
    expect(written.turns[0].llm_call.tool_calls[0].arguments).toEqual({ api_key: '[REDACTED]', path: '/v1/x' })
  })

  it('writes secrets as they are with redact: false', async () => {
    const traceDir = tempDir()
    const s = await session('raw', { traceDir, redact: false }, (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'call_api', arguments: { api_key: 'sk-live-123' } }] })
    })
    expect(readFileSync(s.path!, 'utf8')).toContain('"api_key": "sk-live-123"')
  })

  it('redacts golden files too', async () => {
    const traceDir = tempDir()
    const s = await session('golden-secrets', { traceDir, golden: true, metadata: { token: 'abcdefghijkl', note: 'Bearer abcdefghijkl' } }, () => undefined)
    expect(JSON.parse(readFileSync(s.path!, 'utf8')).metadata).toEqual({ token: '[REDACTED]', note: 'Bearer [REDACTED]' })
  })

  it("applies the session's own rules, anchored value patterns included, with nothing else in the trace to redact", async () => {
    const traceDir = tempDir()
    const s = await session('ssn', { traceDir, redact: { values: [/^\d{3}-\d{2}-\d{4}$/] } }, (s) => {
      s.logToolResult('lookup', { result: { ssn: '123-45-6789', city: 'Rome' } })
    })
    expect(readFileSync(s.path!, 'utf8')).not.toContain('123-45-6789')
    expect(JSON.parse(readFileSync(s.path!, 'utf8')).orphan_results[0].result).toEqual({ ssn: REDACTED, city: 'Rome' })
  })

  it('compares a run with its golden after redacting it the same way', () => {
    const traceDir = tempDir()
    const trace = {
      trace_id: 't',
      name: 'keyed',
      turns: [],
      metadata: { api_key: 'k-1' },
      started_at: 1,
      ended_at: 2,
      format_version: '1' as const,
      parent_trace_id: null,
      handoff_context: null,
    }
    expect(matchGolden(trace, { traceDir, update: 'new' }).written).toBe('created')
    expect(matchGolden({ ...trace, metadata: { api_key: 'k-2' } }, { traceDir, update: 'none' }).pass).toBe(true)
  })
})

describe('redactForDisk()', () => {
  it('is what renderTrace writes', () => {
    const trace = {
      trace_id: 't',
      name: 'n',
      turns: [],
      metadata: { password: 'p' },
      started_at: 1,
      ended_at: 2,
      format_version: '1' as const,
      parent_trace_id: null,
      handoff_context: null,
    }
    expect(renderTrace(trace)).toBe(`${JSON.stringify(redactForDisk(trace), null, 2)}\n`)
    expect(redactForDisk(trace).metadata).toEqual({ password: REDACTED })
    expect(trace.metadata.password).toBe('p')
  })
})
