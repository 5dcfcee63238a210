/**
 * The test fixture: `test` from `reagent-flow/vitest` is vitest's `test` with
 * an `agentSession` fixture, which runs agent code in a session named after
 * the test, describe blocks included (`refunds > order 42`), so goldens need
 * no hand-written names.
 *
 *   test('refunds order 42', async ({ agentSession }) => {
 *     const s = await agentSession(() => runAgent('Refund order 42'))
 *     await expect(s).toMatchGolden()
 *   })
 */
import { test as vitestTest } from 'vitest'
import { session, type ClosedSession, type SessionFn } from '../run/session.js'
import type { SessionOptions } from '../run/options.js'
import { fullTestName } from './test-scope.js'

export interface AgentSessionOptions extends SessionOptions {
  /**
   * A name for this session within the test: the session is named
   * `<test name> > <name>`. Default: the test's name alone.
   * @example agentSession({ name: 'billing' }, () => billingAgent(order))
   */
  name?: string
}

/**
 * Runs `fn` in a recording session named after the current test and resolves
 * to the closed Session (see `session()`). The first session of a test
 * without a `name` is named after the test; a later session with the same
 * name gets ` #2`, ` #3`, ... so each keeps its own trace and golden.
 */
export interface AgentSession {
  <T>(fn: SessionFn<T>): Promise<ClosedSession<T>>
  <T>(options: AgentSessionOptions, fn: SessionFn<T>): Promise<ClosedSession<T>>
}

export interface ReagentFixtures {
  /**
   * Options for every session of a test (`traceDir`, `metadata`, `redact`,
   * ...); options given to `agentSession` take precedence, and `metadata`
   * objects are merged. Default: `{}`. Set them for a file or a describe
   * block with vitest's `test.override`.
   * @example test.override({ reagentOptions: { traceDir: 'test/.traces' } })
   */
  reagentOptions: SessionOptions
  /** Runs agent code in a session named after the test. See `AgentSession`. */
  agentSession: AgentSession
}

function mergeOptions(defaults: SessionOptions, options: SessionOptions): SessionOptions {
  const merged = { ...defaults, ...options }
  if (defaults.metadata !== undefined && options.metadata !== undefined) merged.metadata = { ...defaults.metadata, ...options.metadata }
  return merged
}

function checkName(name: unknown): string | undefined {
  if (name === undefined || (typeof name === 'string' && name !== '')) return name
  throw new TypeError(`agentSession(): options.name must be a non-empty string, got ${JSON.stringify(name) ?? String(name)}.`)
}

/** vitest's `test` with the `agentSession` fixture (and `reagentOptions`). */
export const test = vitestTest.extend<ReagentFixtures>({
  reagentOptions: {},
  agentSession: async ({ task, reagentOptions }, use) => {
    const opened = new Map<string, number>()
    const agentSession = async <T>(optionsOrFn: AgentSessionOptions | SessionFn<T>, maybeFn?: SessionFn<T>): Promise<ClosedSession<T>> => {
      const fn = typeof optionsOrFn === 'function' ? optionsOrFn : maybeFn
      if (typeof fn !== 'function') throw new TypeError('agentSession() needs a function to run, as its last argument.')
      const given: unknown = typeof optionsOrFn === 'function' ? {} : optionsOrFn
      if (given === null || typeof given !== 'object' || Array.isArray(given)) {
        throw new TypeError(`agentSession() options must be an object, got ${given === null ? 'null' : Array.isArray(given) ? 'an array' : typeof given}.`)
      }
      const { name, ...options } = given as AgentSessionOptions
      const sub = checkName(name)
      const testName = fullTestName(task)
      const base = sub === undefined ? testName : `${testName} > ${sub}`
      const count = (opened.get(base) ?? 0) + 1
      opened.set(base, count)
      return session(count === 1 ? base : `${base} #${count}`, mergeOptions(reagentOptions, options), fn)
    }
    await use(agentSession)
  },
})

/** The same as `test`, as vitest offers `it`. */
export const it = test
