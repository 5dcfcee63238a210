import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { OtlpExportError, OtlpFormatError } from '../../src/errors/index.js'
import { fromOtlp, postOtlp, toOtlp, type OtlpExportRequest } from '../../src/entries/otel.js'
import { decodeValue, type OtlpAnyValue } from '../../src/otel/otlp-json.js'
import { buildTrace } from '../helpers/trace-builder.js'

function chat(spanId: string, parentSpanId: string | undefined, start: number, model: string): Record<string, unknown> {
  return {
    traceId: 'a'.repeat(32),
    spanId,
    ...(parentSpanId === undefined ? {} : { parentSpanId }),
    name: `chat ${model}`,
    startTimeUnixNano: `${start}000000000`,
    endTimeUnixNano: `${start}500000000`,
    attributes: [
      { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
      { key: 'gen_ai.request.model', value: { stringValue: model } },
    ],
  }
}

const request = (spans: unknown[]): unknown => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] })

describe('OTLP input that breaks things', () => {
  it('reads spans whose parents point at each other (a damaged file) without losing them', async () => {
    const { traces } = await fromOtlp(
      request([chat('1111111111111111', '2222222222222222', 1_800_000_000, 'a'), chat('2222222222222222', '1111111111111111', 1_800_000_001, 'b')]),
    )
    expect(traces.flatMap((trace) => trace.turns.map((turn) => turn.llm_call.model))).toEqual(['a', 'b'])
  })

  it('reads a chain 5,000 spans deep without running out of stack', async () => {
    const spans = Array.from({ length: 5_000 }, (_, i) =>
      chat(
        i.toString(16).padStart(16, '0').replace(/^0/, '1'),
        i === 0 ? undefined : (i - 1).toString(16).padStart(16, '0').replace(/^0/, '1'),
        1_800_000_000 + i,
        'm',
      ),
    )
    const { traces } = await fromOtlp(request(spans))
    expect(traces[0]!.turns).toHaveLength(5_000)
  })

  it('reads an attribute nested 100,000 levels deep (as JSON text holds it), cut to "[Too deep]" at depth 64', async () => {
    const levels = 100_000
    const text = `${'{"kvlistValue":{"values":[{"key":"k","value":'.repeat(levels)}{"stringValue":"bottom"}${'}]}}'.repeat(levels)}`
    const deep = JSON.parse(text) as OtlpAnyValue
    const span = chat('1111111111111111', undefined, 1_800_000_000, 'm')
    ;(span.attributes as unknown[]).push({ key: 'custom.deep', value: deep })
    const { traces } = await fromOtlp(request([span]))
    expect(traces[0]!.turns.map((turn) => turn.llm_call.model)).toEqual(['m'])
    let value = decodeValue(deep)
    for (let depth = 0; depth < 64; depth++) value = (value as Record<string, unknown>)['k'] as typeof value
    expect(value).toBe('[Too deep]')
  })

  it.each([
    ['a 400-digit start time', { startTimeUnixNano: '9'.repeat(400) }, 'startTimeUnixNano'],
    ['a start time beyond a fixed64', { startTimeUnixNano: '18446744073709551616' }, 'startTimeUnixNano'],
    ['an end time given as a huge number', { endTimeUnixNano: 1e300 }, 'endTimeUnixNano'],
  ])('refuses %s, naming the span and the field', async (_, times, field) => {
    const span = { ...chat('1111111111111111', undefined, 1_800_000_000, 'm'), ...times }
    const imported = fromOtlp(request([span]), { source: 'spans.json' })
    await expect(imported).rejects.toBeInstanceOf(OtlpFormatError)
    await expect(imported).rejects.toThrow(
      `spans.json at resourceSpans[0].scopeSpans[0].spans[0].${field}: expected nanoseconds since the epoch (a decimal string of at most 20 digits, an OTLP fixed64)`,
    )
  })

  it('gives up on a receiver that never answers after timeoutMs, saying so', async () => {
    const server = createServer(() => undefined)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    onTestFinished(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        }),
    )
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const sent = postOtlp(url, toOtlp({ trace: buildTrace('slow', [{ text: 'hi' }]), children: [] }) as OtlpExportRequest, { timeoutMs: 200 })
    await expect(sent).rejects.toBeInstanceOf(OtlpExportError)
    await expect(sent).rejects.toThrow(`Could not send the spans to ${url}/v1/traces: no answer (The operation was aborted due to timeout).`)
  })
})
