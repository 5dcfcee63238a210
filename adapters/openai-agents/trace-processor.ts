/**
 * The trace processor registered with the Agents SDK: hands each span start
 * and end to AgentRuns, in the async context the SDK runs it in (that of the
 * run, inside the user's session). Nothing here is ever thrown into the SDK.
 */
import { recordSafely } from '../../src/adapter-support/index.js'
import type { AgentRuns, SdkSpan } from './agent-runs.js'
import { ADAPTER } from './wire.js'

const done = Promise.resolve()

/** A `TracingProcessor` of @openai/agents, described by shape. */
export class ReagentTraceProcessor {
  readonly #runs: AgentRuns

  constructor(runs: AgentRuns) {
    this.#runs = runs
  }

  onTraceStart(): Promise<void> {
    return done
  }

  onTraceEnd(trace: { readonly traceId: string }): Promise<void> {
    recordSafely(ADAPTER, 'the end of a run', () => this.#runs.traceEnded(trace.traceId))
    return done
  }

  onSpanStart(span: SdkSpan): Promise<void> {
    recordSafely(ADAPTER, `the start of a ${span.spanData.type} span`, () => this.#runs.spanStarted(span))
    return done
  }

  onSpanEnd(span: SdkSpan): Promise<void> {
    recordSafely(ADAPTER, `a ${span.spanData.type} span`, () => this.#runs.spanEnded(span))
    return done
  }

  shutdown(): Promise<void> {
    return done
  }

  forceFlush(): Promise<void> {
    return done
  }
}
