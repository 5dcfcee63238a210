/**
 * The matchers' types, added to vitest's `expect(...)` by declaration
 * merging (vitest's documented way: `declare module 'vitest'`, interface
 * `Matchers<T = any>`). Methods rather than properties, so two copies of
 * these declarations in one program (the sources and the built package)
 * merge as overloads instead of clashing.
 */
import type { CallCount } from '../assert/calls.js'
import type { Session } from '../session.js'
import type { GoldenMatcherOptions } from './golden-matcher.js'

declare module 'vitest' {
  // Declared with the same type parameter as vitest's, or the interfaces would not merge.
  interface Matchers<T = any> {
    /**
     * The agent called `tool` at least once. On a Session or a Trace.
     * @example expect(s).toHaveCalledTool('issue_refund')
     */
    toHaveCalledTool(tool: string): void
    /**
     * Some call of `tool` had every key of `partialArgs` with an equal value
     * (other arguments ignored); values may be asymmetric matchers.
     * @example expect(s).toHaveCalledToolWith('issue_refund', { order_id: '42', amount: expect.any(Number) })
     */
    toHaveCalledToolWith(tool: string, partialArgs: Readonly<Record<string, unknown>>): void
    /**
     * `tool` was called exactly `times`, or between `min` (default 0) and `max` (default no limit) times.
     * @example expect(s).toHaveCalledToolTimes('search', { max: 3 })
     */
    toHaveCalledToolTimes(tool: string, times: CallCount): void
    /**
     * The tool names in call order match `pattern`, anchored at both ends; `'...'` is any run of calls.
     * @example expect(s).toMatchFlow(['lookup_order', '...', 'issue_refund'])
     */
    toMatchFlow(pattern: readonly string[]): void
    /**
     * The run completed (its function did not throw) and every tool call has a result without an error.
     * @example expect(s).toHaveSucceeded()
     */
    toHaveSucceeded(): void
    /**
     * The run matches its golden baseline, which belongs to the test file
     * as a snapshot does: `<traceDir>/golden/<test file>/<test name>.trace.json`
     * (outside vitest, `<traceDir>/golden/<name>.trace.json`). A missing
     * golden is written, except under CI; `vitest -u` or `REAGENT_UPDATE=all`
     * rewrites it. Options: the `diffTraces` options, `traceDir`, `redact`.
     * It checks at once (a mismatch fails the test, awaited or not); awaiting it is harmless.
     * @example expect(s).toMatchGolden({ args: { tools: { search: 'ignore' } } })
     */
    toMatchGolden(options?: GoldenMatcherOptions): void
    /**
     * At least `share` (0 to 1) of the runs of a run set (`repeat()`) pass
     * `check`: they completed, matched their golden (`golden: true`), and
     * `check(run)` neither threw nor returned false. A failure lists the
     * failing runs with their first failing assertion and trace file. With
     * an async check it returns a promise: await it.
     * @example expect(runs).toPassInAtLeast(0.8, (run) => expect(run).toHaveCalledTool('issue_refund'))
     */
    toPassInAtLeast(share: number, check: (run: Session<any>) => PromiseLike<unknown>): Promise<void>
    toPassInAtLeast(share: number, check: (run: Session<any>) => unknown): void
  }
}
