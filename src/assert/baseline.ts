/**
 * `assertMatchesBaseline(trace)`: reagent-flow 0.5's baseline assertion. The
 * run and its golden are compared in normal form through `diffTraces`; it
 * reads the golden but never writes one (record with `session(name, { golden: true })`).
 */
import { resolveDiffOptions } from '../diff/options.js'
import type { DiffOptions } from '../diff/types.js'
import { AgentAssertionError, TraceNotFoundError } from '../errors/index.js'
import { compareWithGolden, fileGoldenStore, mismatchMessage, renderGolden } from '../golden/index.js'
import { plural } from '../report/format-value.js'
import type { RedactOption } from '../redact/index.js'
import type { Trace } from '../trace/types.js'

export interface BaselineOptions extends DiffOptions {
  /** Directory of traces; the golden is `<traceDir>/golden/<name>.trace.json`. Default: `".reagent"`. */
  traceDir?: string | undefined
  /**
   * reagent-flow 0.5's name for `ignore` (both are applied).
   * @example { ignoreFields: ['results', 'lookup.timestamp'] }
   */
  ignoreFields?: readonly string[] | ReadonlySet<string> | undefined
  /** Secrets removed from the golden when it was written, removed from the run alike. Default: the built-in secret shapes. */
  redact?: RedactOption | undefined
}

const BASELINE_OPTIONS = ['traceDir', 'ignoreFields', 'redact']

/** The options with `ignoreFields` merged into `ignore`. */
function mergeIgnoreFields(options: BaselineOptions): object {
  const { ignoreFields, ...rest } = options
  if (ignoreFields === undefined) return rest
  if (!(ignoreFields instanceof Set) && !Array.isArray(ignoreFields)) {
    throw new TypeError(`assertMatchesBaseline() option "ignoreFields" must be an array or a Set of strings; got ${typeof ignoreFields}.`)
  }
  // A malformed `ignore` is left as it is, for the option check to report.
  if (rest.ignore !== undefined && !Array.isArray(rest.ignore)) return rest
  return { ...rest, ignore: [...(rest.ignore ?? []), ...ignoreFields] }
}

/**
 * Throws `AgentAssertionError` when `trace` does not match its golden
 * baseline (any of its accepted variants): the message names the trace and
 * the file, followed by the diff with the closest variant, and
 * `actual`/`expected` hold both traces in normal form. A missing golden is
 * a `TraceNotFoundError` naming the path.
 *
 * @example
 * assertMatchesBaseline(s.trace, { traceDir: '.reagent', ignoreFields: ['response_text'] })
 */
export function assertMatchesBaseline(trace: Trace, options: BaselineOptions = {}): void {
  const resolved = resolveDiffOptions(mergeIgnoreFields(options), 'assertMatchesBaseline()', BASELINE_OPTIONS)
  const store = fileGoldenStore(options.traceDir)
  const path = store.resolvePath(trace)
  const text = store.read(path)
  if (text === null) {
    throw new TraceNotFoundError(
      path,
      `There is no golden baseline for "${trace.name}" to compare with. Record one with ` +
        `session(${JSON.stringify(trace.name)}, { golden: true }, ...) from a run you trust, then commit ${path}.`,
      trace.name,
    )
  }
  const actual = renderGolden(trace, options.redact).trace
  const { expected, diff, variant, variants } = compareWithGolden({ path, text }, actual, resolved)
  if (diff.equal) return
  throw new AgentAssertionError(mismatchMessage(trace.name, path, diff, { index: variant, of: variants }), {
    traceName: trace.name,
    assertion: `"${trace.name}" does not match its golden baseline (${plural(diff.changes.length, 'difference')})`,
    actual,
    expected,
  })
}
