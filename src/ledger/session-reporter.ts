/**
 * `session()` reporting its run to a ledger (the `ledger` option, or
 * `REAGENT_LEDGER_URL` and `REAGENT_LEDGER_TOKEN`): run.begin when the
 * session opens (sent at once, never waited for), then, when it closes and its
 * trace is written, run.complete and trace.put (handed off: `session()`
 * resolves without waiting for them), so tests on many machines
 * land in one ledger. The run id is the trace id. Where the run came from
 * goes into the run's metadata (the specification's place for what has no
 * field of its own): its test file and test name inside vitest, and the git
 * commit and branch, so a CI build's runs can be grouped.
 *
 * A ledger that is down or refuses never fails the test: the first failure
 * in the process is one REAGENT_LEDGER warning, later ones are silent, and
 * the trace is written locally as always. A run that failed for a reason
 * worth retrying (no answer, 408, 429, 5xx), or was still unsent when the
 * process exited, is kept in the outbox (outbox.ts) for `reagent-flow ledger
 * push`; one the ledger refused (401, 422, ...) is not: sending it again
 * would be refused again.
 */
import { isCi } from '../golden/update-mode.js'
import { dirname } from 'node:path'
import { renderTrace } from '../storage/index.js'
import { shellCommand } from '../report/shell.js'
import { finalResponse } from '../trace/facts.js'
import { redactForDisk, type RedactOption } from '../redact/index.js'
import type { JsonObject, Trace } from '../trace/types.js'
import { createLedgerClient, type LedgerClient } from './client.js'
import { gitRevision } from './git-revision.js'
import { isLedgerError } from './errors.js'
import type { RunBeginInput, RunCompleteInput } from './input-types.js'
import { spoolRun, type SpooledRun } from './outbox.js'
import { type LedgerReportOptions, warnLedgerOnce } from './ledger-option.js'
import type { OpenedRun } from './opened-run.js'

const amount = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0)

export interface LedgerReport {
  /** Completes the run and uploads its trace (rendered with `redact`, as its file is); never throws. */
  finish(trace: Trace, redact: RedactOption | undefined): Promise<void>
}

/**
 * What the run row's metadata says about where the run came from: the test
 * (file relative to the vitest root, full name) and the git revision. The
 * session's own metadata wins a clash: a key its author set is theirs.
 */
function originOf(run: OpenedRun, root: string): JsonObject {
  const origin: JsonObject = {}
  if (run.test_file !== undefined) origin.test_file = run.test_file
  if (run.test_name !== undefined) origin.test_name = run.test_name
  const { commit, branch } = gitRevision(root)
  if (commit !== undefined) origin.git_commit = commit
  if (branch !== undefined) origin.git_branch = branch
  return origin
}

/** A failure worth sending again later: no answer, a timeout, a busy or failing server. A refusal (401, 422, ...) is not. */
function isRetryable(error: unknown): boolean {
  if (!isLedgerError(error)) return true
  return error.status === null || error.status === 408 || error.status === 429 || error.status >= 500
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** Runs closed and handed off but not yet sent: spooled if the process exits first. */
const unsent = new Map<string, { outbox: string; run: SpooledRun }>()
let exitHookAdded = false

function spoolUnsentAtExit(): void {
  if (exitHookAdded) return
  exitHookAdded = true
  // Synchronous, as 'exit' listeners must be: a process ending with sends in flight keeps them.
  process.on('exit', () => {
    for (const { outbox, run } of unsent.values()) {
      try {
        spoolRun(outbox, { ...run, reason: 'the process exited before the ledger answered' })
      } catch {
        // Nothing more can be done as the process exits; the trace file is written.
      }
    }
    unsent.clear()
  })
}

/**
 * Starts reporting the run `trace` (as its session opened) to `ledger`:
 * run.begin is sent at once and nobody waits for it. `root` is where git is
 * asked for the revision: the vitest root inside a test, else the working
 * directory. `outbox` is where a run that could not be sent is kept (none
 * with `save: false`).
 */
export function startLedgerReport(
  trace: OpenedRun,
  ledger: LedgerReportOptions,
  redact: RedactOption | undefined,
  root: string = process.cwd(),
  outbox: string | undefined = undefined,
): LedgerReport {
  const timeoutMs = ledger.timeoutMs ?? 5000
  const client: LedgerClient = createLedgerClient(ledger.url, { token: ledger.token, timeoutMs })
  const uploads = createLedgerClient(ledger.url, { token: ledger.token, timeoutMs: timeoutMs * 6 })
  const failed = (error: unknown, kept: string | undefined): void =>
    warnLedgerOnce(
      `url:${ledger.url}`,
      `session "${trace.name}": the run was not reported to the ledger at ${ledger.url}: ${reasonOf(error)}. ` +
        (kept === undefined
          ? 'The test goes on and its trace is written locally; '
          : `The test goes on; the run is kept in ${dirname(kept)} until ${shellCommand(['reagent-flow', 'ledger', 'push', '--dir', dirname(dirname(kept))])} sends it; `) +
        'further ledger failures in this process are not reported.',
    )
  // What reaches the ledger is redacted as the trace file is: the name, the ids, the goal and the metadata here, the rest in finish().
  const shown = { agent: trace.name, user_id: trace.user_id ?? '-', session_id: trace.session_id, metadata: { ...originOf(trace, root), ...trace.metadata } }
  const { agent, user_id, session_id, metadata } = redactForDisk(shown, redact) as {
    agent: string
    user_id: string
    session_id: string | null
    metadata: JsonObject
  }
  const budgetUsd = amount(metadata.budget_usd)
  const beginning: RunBeginInput = {
    agent: agent.slice(0, 256),
    goal: typeof metadata.goal === 'string' && metadata.goal !== '' ? metadata.goal : agent,
    run_id: trace.trace_id,
    user_id,
    // A cost budget is kept per session: a run without one is its own.
    session_id: session_id ?? (budgetUsd > 0 ? trace.trace_id : '-'),
    environment: isCi(process.env) ? 'ci' : 'local',
    consumer: 'reagent-flow',
    metadata,
    budget_usd: budgetUsd,
    budget_seconds: Math.floor(amount(metadata.budget_seconds)),
  }
  const begun: Promise<unknown> = client.begin(beginning).then(
    () => undefined,
    (error: unknown) => error ?? new Error('run.begin failed'),
  )
  return {
    async finish(closed, redact) {
      const raw = closed as Trace & { interruption_reason?: unknown }
      const closedMetadata: JsonObject = {}
      if (typeof raw.interruption_reason === 'string') closedMetadata.interruption_reason = raw.interruption_reason
      if (closed.error != null) closedMetadata.error = `${closed.error.name}: ${closed.error.message}`
      const status = closed.status === 'completed' || closed.status === 'cancelled' ? closed.status : 'failed'
      const ended = closed.ended_at ?? closed.started_at
      const shown = redactForDisk({ final_response: finalResponse(closed) ?? '', metadata: closedMetadata }, redact) as {
        final_response: string
        metadata: JsonObject
      }
      const completion: RunCompleteInput = {
        run_id: closed.trace_id,
        status: status as RunCompleteInput['status'],
        final_response: shown.final_response,
        duration_ms: Math.max(0, Math.round((ended - closed.started_at) * 1000)),
        metadata: shown.metadata,
      }
      const traceText = renderTrace(closed, { redact })
      const run: SpooledRun = { ledger: ledger.url, run_id: closed.trace_id, begin: beginning, complete: completion, trace: traceText, reason: '' }
      if (outbox !== undefined) {
        unsent.set(run.run_id, { outbox, run })
        spoolUnsentAtExit()
      }
      try {
        const beginError = await begun
        if (beginError !== undefined) throw beginError
        await client.complete(completion)
        await uploads.putTrace({ run_id: closed.trace_id }, traceText)
        unsent.delete(run.run_id)
      } catch (error) {
        unsent.delete(run.run_id)
        let kept: string | undefined
        if (outbox !== undefined && isRetryable(error)) {
          try {
            kept = spoolRun(outbox, { ...run, reason: reasonOf(error) })
          } catch (spoolError) {
            warnLedgerOnce(`outbox:${outbox}`, `the run "${run.run_id}" could not be kept in ${outbox} to send later: ${reasonOf(spoolError)}`)
          }
        }
        failed(error, kept)
      }
    },
  }
}
