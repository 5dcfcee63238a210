/**
 * How every assertion fails: an AgentAssertionError whose message is the
 * failed assertion on its first line (what one-line views of a test run
 * show), then the agent stack trace.
 */
import { AgentAssertionError } from '../errors/index.js'
import { formatStackTrace } from '../report/stack-trace.js'
import type { Trace } from '../trace/types.js'

export interface Failure {
  /** The tool the assertion is about. */
  tool?: string
  /** The assertion's own findings, most telling first. */
  causes?: ReadonlyArray<string | undefined>
  /** Background facts, shown after what the trace says. */
  facts?: ReadonlyArray<string | undefined>
  /** Set both for a diff in the test runner. */
  diff?: { actual: unknown; expected: unknown }
}

const present = (items: ReadonlyArray<string | undefined> = []): string[] => items.filter((item): item is string => item !== undefined)

export function fail(trace: Trace, assertion: string, failure: Failure = {}): never {
  const stack = formatStackTrace(trace, {
    assertion,
    causes: present(failure.causes),
    facts: present(failure.facts),
    ...(failure.tool === undefined ? {} : { tool: failure.tool }),
  })
  throw new AgentAssertionError(`${assertion}\n\n${stack}`, { traceName: trace.name, assertion, ...failure.diff })
}
