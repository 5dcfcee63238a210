/**
 * The three dialects, and how one is chosen: the one most of the spans
 * speak, OpenInference and OpenLLMetry before the bare GenAI conventions
 * (their spans often carry some `gen_ai.*` attributes too).
 */
import { OtlpFormatError } from '../../errors/index.js'
import type { SpanRecord } from '../span-record.js'
import { DIALECTS, type Dialect, type DialectName } from './dialect.js'
import { genAi } from './genai.js'
import { openInference } from './openinference.js'
import { openLlmetry } from './openllmetry.js'

const BY_NAME: Readonly<Record<DialectName, Dialect>> = { genai: genAi, openinference: openInference, openllmetry: openLlmetry }
const DETECTION_ORDER: readonly Dialect[] = [openInference, openLlmetry, genAi]

export type DialectOption = DialectName | 'auto'
export const DIALECT_OPTIONS: readonly DialectOption[] = ['auto', ...DIALECTS]

/** The dialect named, or detected from the spans' attributes; `OtlpFormatError` when none of them is a GenAI span. */
export function chooseDialect(spans: readonly SpanRecord[], option: DialectOption, source: string): Dialect {
  if (option !== 'auto') {
    const dialect = BY_NAME[option]
    if (dialect === undefined) throw new RangeError(`dialect must be one of ${DIALECT_OPTIONS.join(', ')}; got ${JSON.stringify(option)}.`)
    return dialect
  }
  let best: Dialect | undefined
  let bestCount = 0
  for (const dialect of DETECTION_ORDER) {
    const speakers = spans.filter((span) => dialect.speaks(span)).length
    if (speakers > bestCount) [best, bestCount] = [dialect, speakers]
  }
  if (best === undefined) {
    throw new OtlpFormatError(
      source,
      '',
      `none of its ${spans.length} span(s) is a GenAI span (no gen_ai.operation.name, openinference.span.kind, traceloop.span.kind or llm.request.type attribute); ` +
        `record the agent with an OpenTelemetry GenAI, OpenInference or OpenLLMetry instrumentation`,
    )
  }
  return best
}

export type { Dialect, DialectName, LlmDraft, ToolDraft } from './dialect.js'
