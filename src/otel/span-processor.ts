/**
 * Live intake: a `SpanProcessor` for the OpenTelemetry SDK
 * (`@opentelemetry/sdk-trace-base` 2.x) that records the GenAI spans ended
 * inside a `session()` into it, so an app instrumented with OpenTelemetry
 * (the GenAI conventions, OpenInference's or OpenLLMetry's instrumentations)
 * is recorded with no reagent-flow adapter.
 *
 * A processor's `onEnd` runs where the span was ended, in the async context
 * of the code that ended it, which is how a span finds its session (an
 * exporter, batched and later, could not). The spans of a session are kept
 * until it closes, then turned into turns all at once, as `reagent-flow
 * import` does: a tool span can then find the model call that asked for it,
 * whatever order the spans ended in. The session is the agent: agent spans
 * inside it add no child sessions, and every model call and tool span it saw
 * end is one of its turns (or results).
 */
import { recordSafely } from '../warnings/record-safely.js'
import { currentSession } from '../session/context.js'
import type { Session } from '../session/session.js'
import { chooseDialect, type DialectOption } from './dialects/index.js'
import { logRun } from './log-turns.js'
import { planOneRun } from './run-plan.js'
import { spanFromReadable, type ReadableSpanLike, type SpanRecord } from './span-record.js'
import { internals } from '../session/internals.js'

const ADAPTER = 'reagent-flow/otel'

export interface ReagentSpanProcessorOptions {
  /** Which conventions the spans follow. Default: "auto" (detected per session from the spans' attributes). */
  dialect?: DialectOption
}

const OPTION_NAMES: ReadonlySet<string> = new Set(['dialect'])
const DIALECT_NAMES: ReadonlySet<unknown> = new Set(['auto', 'genai', 'openinference', 'openllmetry'])

/**
 * @example
 * const provider = new BasicTracerProvider({ spanProcessors: [new ReagentSpanProcessor(), new BatchSpanProcessor(exporter)] })
 * const s = await session('weather-agent', () => runAgent('Weather in Paris?'))
 * s.assertCalled('get_weather')
 */
export class ReagentSpanProcessor {
  readonly #dialect: DialectOption
  readonly #spans = new WeakMap<Session, SpanRecord[]>()

  constructor(options: ReagentSpanProcessorOptions = {}) {
    if (options === null || typeof options !== 'object')
      throw new TypeError(`new ReagentSpanProcessor(options): options must be an object, got ${options === null ? 'null' : typeof options}.`)
    for (const key of Object.keys(options)) {
      if (!OPTION_NAMES.has(key)) throw new TypeError(`Unknown ReagentSpanProcessor option "${key}". Valid options: ${[...OPTION_NAMES].join(', ')}.`)
    }
    if (options.dialect !== undefined && !DIALECT_NAMES.has(options.dialect)) {
      throw new RangeError(`ReagentSpanProcessor option "dialect" must be one of ${[...DIALECT_NAMES].join(', ')}; got ${JSON.stringify(options.dialect)}.`)
    }
    this.#dialect = options.dialect ?? 'auto'
  }

  onStart(): void {}

  onEnd(span: ReadableSpanLike): void {
    const s = currentSession()
    if (s === undefined) return
    recordSafely(ADAPTER, 'an ended span', () => {
      let spans = this.#spans.get(s)
      if (spans === undefined) {
        this.#spans.set(s, (spans = []))
        s[internals].beforeClose(() => this.#record(s))
      }
      spans.push(spanFromReadable(span))
    })
  }

  #record(s: Session): void {
    const spans = this.#spans.get(s) ?? []
    this.#spans.delete(s)
    recordSafely(ADAPTER, 'the spans of a session', () => {
      // A session whose spans are none of the dialects' (HTTP, database spans) records nothing.
      if (
        !spans.some((span) =>
          ['openinference.span.kind', 'traceloop.span.kind', 'llm.request.type', 'gen_ai.operation.name'].some((key) => span.attributes.has(key)),
        )
      )
        return
      const dialect = chooseDialect(spans, this.#dialect, `the spans of session "${s.name}"`)
      const run = planOneRun(spans, dialect, s.name)
      if (run !== undefined) logRun(s, run)
    })
  }

  forceFlush(): Promise<void> {
    return Promise.resolve()
  }

  shutdown(): Promise<void> {
    return Promise.resolve()
  }
}
