/** The spans of an OTLP/JSON file, as `reagent-flow import` and `reagent-flow scaffold` read it. */
import { OtlpFormatError } from '../errors/index.js'
import { spansFromOtlp, type SpanRecord } from '../otel/span-record.js'

/**
 * The spans of a file holding one OTLP/JSON request, or one per line (the
 * OpenTelemetry Collector's file exporter writes JSON lines).
 */
export function spansOfFile(text: string, file: string): SpanRecord[] {
  if (text.trim() === '') throw new OtlpFormatError(file, '', 'the file is empty')
  try {
    return spansFromOtlp(JSON.parse(text), file)
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error
  }
  const spans: SpanRecord[] = []
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    let document: unknown
    try {
      document = JSON.parse(line)
    } catch (error) {
      throw new OtlpFormatError(file, `line ${i + 1}`, `not JSON (${(error as Error).message}); expected OTLP/JSON, one request per file or per line`)
    }
    spans.push(...spansFromOtlp(document, `${file} line ${i + 1}`))
  })
  return spans
}

/** Whether `text` looks like OTLP/JSON (a request, or one per line) rather than a trace: it names `resourceSpans` before any trace field. */
export function looksLikeOtlp(text: string): boolean {
  const spans = text.indexOf('"resourceSpans"')
  if (spans === -1) return false
  const traceField = text.search(/"(format_version|trace_id|turns)"/)
  return traceField === -1 || spans < traceField
}
