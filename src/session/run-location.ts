/**
 * Where a new session's files go. Outside vitest: `<traceDir>/<name>.trace.json`,
 * traceDir relative to the working directory, the latest run of a name
 * replacing the previous one. Inside vitest (a test scope, see
 * vitest/test-scope.ts): traceDir resolves against the vitest project root,
 * and the run belongs to its test file and test, so concurrent tests,
 * workers and files never share a file:
 *
 *   <root>/<traceDir>/<test file>/<key>.trace.json
 *
 * The key is the test's full name, with ` > <session name>` when the session
 * is not named after its test (the agentSession fixture names it so), and
 * ` #2`, ` #3`, ... for a later session of the same key in one test.
 */
import { isAbsolute, resolve } from 'node:path'
import type { TestScope } from './test-scope.js'
import { DEFAULT_TRACE_DIR, resolveTraceFile } from '../storage/index.js'

export interface RunLocation {
  /** The directory of the run's trace file and golden: absolute inside vitest. */
  traceDir: string
  runPath: string
  /** Inside vitest: the fields that tie the trace to its test. */
  test: { test_file: string; test_name: string; test_key: string } | undefined
}

/** The key a session named `name` has in the test of `scope`, before it is claimed: the test's name, then ` > <name>` unless the name starts with it. */
export function testKeyOf(scope: TestScope, name: string): string {
  const test = scope.testName
  return name === test || name.startsWith(`${test} > `) || name.startsWith(`${test} #`) ? name : `${test} > ${name}`
}

/**
 * The key of a session named `name` in the test of `scope`, claimed (a
 * repeated key gets its number). A resumed run takes the key of the run it
 * resumes, the latest of its name in this test, and so its files.
 */
function claimKey(scope: TestScope, name: string, isResume: boolean): string {
  const base = testKeyOf(scope, name)
  const claimed = scope.keys.get(base) ?? 0
  const count = isResume && claimed > 0 ? claimed : claimed + 1
  scope.keys.set(base, count)
  return count === 1 ? base : `${base} #${count}`
}

export function locateRun(name: string, traceDir: string | undefined, scope: TestScope | undefined, isResume = false): RunLocation {
  if (scope === undefined) {
    const dir = traceDir ?? DEFAULT_TRACE_DIR
    return { traceDir: dir, runPath: resolveTraceFile({ name }, { traceDir: dir }), test: undefined }
  }
  const given = traceDir ?? DEFAULT_TRACE_DIR
  const dir = isAbsolute(given) ? given : resolve(scope.root, given)
  const test = { test_file: scope.file, test_name: scope.testName, test_key: claimKey(scope, name, isResume) }
  return { traceDir: dir, runPath: resolveTraceFile({ name, ...test }, { traceDir: dir }), test }
}
